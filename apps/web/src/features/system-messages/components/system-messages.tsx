import { useTexts } from '../../../i18n/use-texts.ts';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import type { SystemMessage } from '@videomote/contract/messages';
import { Alert, type AlertVariant } from '../../../components/ui/alert.tsx';
import { useSession } from '../../session/session-context.tsx';
import { getActiveMessages } from '../api/get-active-messages.ts';

const VARIANT = {
  2: { variant: 'error', title: 'shell.systemError' },
  1: { variant: 'warning', title: 'shell.systemWarning' },
  0: { variant: 'info', title: 'shell.systemInfo' },
} as const satisfies Record<SystemMessage['type'], { variant: AlertVariant; title: string }>;

// Messages start and end while a page stays open; a minute is soon enough for a service notice.
const REFRESH_MS = 60_000;

/**
 * The system messages active now for this user's audience (booking spec §2, §6), on every page. The server
 * decides the audience from the session, so the list is fetched again when the user logs in or out.
 */
export function SystemMessages() {
  const { session } = useSession();
  const { t } = useTexts();
  const { pathname } = useLocation();
  const [messages, setMessages] = useState<SystemMessage[]>([]);
  const who = session.status === 'signed-in' ? `${session.user.identityKind}:${session.user.ciamSub}` : session.status;

  useEffect(() => {
    if (who === 'loading') return;
    const controller = new AbortController();
    const load = () =>
      getActiveMessages(controller.signal).then(
        (list) => setMessages(list ?? []),
        () => {
          // A banner that fails to load must not break the page; keep what we had.
        },
      );
    void load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
    // A new page is a natural moment to pick up messages published meanwhile.
  }, [who, pathname]);

  if (!messages.length) return null;
  return (
    <section className="system-messages" aria-label={t('shell.systemMessages')}>
      {messages.map((m) => {
        const { variant, title } = VARIANT[m.type] ?? VARIANT[0];
        // Polite for all: a notice repeated on every page must not interrupt the screen reader each time.
        return (
          <Alert key={m.id} variant={variant} title={t(title)} live="status" className="system-message">
            <p>{m.value}</p>
          </Alert>
        );
      })}
    </section>
  );
}
