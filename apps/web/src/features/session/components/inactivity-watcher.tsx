import { useTexts } from '../../../i18n/use-texts.ts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { readCookie } from '../../../lib/cookies.ts';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useSession } from '../session-context.tsx';
import { ActivityClock, type InactivityStatus } from '../inactivity.ts';
import { isEmployee, isWebcastVisitor } from '../roles.ts';
import { keepAlive } from '../api/keep-alive.ts';

const API_LAST_CALL = 'APILastCall';

/**
 * The inactivity countdown of booking spec §4, checked every second while someone is signed in: a warning dialog
 * at 5 minutes left, automatic logout (reason inactivity) and /logged-out at 0.
 */
export function InactivityWatcher() {
  const { session, logout } = useSession();
  const { t } = useTexts();
  const navigate = useNavigate();
  const [status, setStatus] = useState<InactivityStatus | null>(null);
  const loggingOut = useRef(false);
  const active = session.status === 'signed-in' && !isWebcastVisitor(session.user);

  useEffect(() => {
    if (!active) {
      setStatus(null);
      return;
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    let cancelled = false;
    loggingOut.current = false;
    void loadClientConfig()
      .catch(() => ({ sessionMinutes: 60 }))
      .then(({ sessionMinutes }) => {
        if (cancelled) return;
        const clock = new ActivityClock(sessionMinutes, readCookie(API_LAST_CALL), Date.now());
        const tick = () => {
          const next = clock.check(readCookie(API_LAST_CALL), Date.now());
          setStatus(next);
          if (next.expired && !loggingOut.current) {
            loggingOut.current = true;
            void logout('inactivity').then(() => navigate('/logged-out', { replace: true }));
          }
        };
        tick();
        timer = setInterval(tick, 1000);
      });
    return () => {
      cancelled = true;
      if (timer) clearInterval(timer);
    };
  }, [active, logout, navigate]);

  if (!active || !status?.showWarning) return null;
  const user = session.user;

  const onContinue = async () => {
    try {
      // The answer stamps a new APILastCall, so the next tick restarts the countdown and hides this dialog.
      await keepAlive();
      setStatus(null);
    } catch {
      // The server session is already gone: leave as for inactivity.
      loggingOut.current = true;
      await logout('inactivity');
      navigate('/logged-out', { replace: true });
    }
  };
  const minutes = status.minutesLeft;

  return (
    <Dialog
      open
      role="alertdialog"
      title={t('session.inactivityTitle')}
      onClose={() => void onContinue()}
      actions={
        <>
          {!isEmployee(user) && (
            <Button variant="secondary" onClick={() => void logout('manual')}>
              {t('session.logout')}
            </Button>
          )}
          <Button data-autofocus onClick={() => void onContinue()}>
            {t('session.continue')}
          </Button>
        </>
      }
    >
      <p>{t('session.inactivityText')}</p>
      <p aria-live="polite">
        {t('session.timeLeft')} <strong>{t('session.minutes', { count: minutes })}</strong>
      </p>
      <p>{t('session.inactivityContinueHint')}</p>
    </Dialog>
  );
}
