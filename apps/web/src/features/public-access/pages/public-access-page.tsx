import { useTexts } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  DISPLAY_NAME_MAX,
  DISPLAY_NAME_REQUIRED,
  DISPLAY_NAME_STORAGE_KEY,
  PUBLIC_ACCESS_FALLBACK_MESSAGE,
  normaliseDisplayName,
} from '@videomote/contract/public-access';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useSession } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { getIdByRoomId } from '../api/get-id-by-room-id.ts';
import { startPublicAccess } from '../api/start-public-access.ts';
import { ErrorIllustration } from '../components/error-illustration.tsx';
import { fieldText, lookupError, type LookupError } from '../lookup-error.ts';
import '../public-access.css';

type View = { kind: 'loading' } | { kind: 'form'; meetingId: string } | { kind: 'error'; error: LookupError };

/** Anonymous entry to an information meeting by its room link (booking spec §2 public access, §8). */
export function PublicAccessPage() {
  const { roomid = '' } = useParams();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('common.callTitle') }));

  useEffect(() => {
    const abort = new AbortController();
    setView({ kind: 'loading' });
    getIdByRoomId(roomid, abort.signal).then(
      ({ meetingId }) => setView({ kind: 'form', meetingId }),
      (e) => !abort.signal.aborted && setView({ kind: 'error', error: lookupError(e) }),
    );
    return () => abort.abort();
  }, [roomid]);

  return (
    <div className="public-access">
      {view.kind === 'loading' && <LoadingSpinner label={t('publicAccess.fetching')} />}
      {view.kind === 'error' && <ErrorPanel error={view.error} />}
      {view.kind === 'form' && <NameForm roomId={roomid} onLinkError={(error) => setView({ kind: 'error', error })} />}
    </div>
  );
}

function ErrorPanel({ error }: { error: LookupError }) {
  const { t } = useTexts();
  const heading = fieldText(error.field);
  // The server's message for a bad link repeats the heading; a visitor then still needs to know what to do.
  const advice = error.message !== heading ? error.message : error.field === 'roomId' ? PUBLIC_ACCESS_FALLBACK_MESSAGE : null;
  return (
    <div className="public-access-error" data-field={error.field}>
      <ErrorIllustration field={error.field} />
      <h1>{t(`publicAccess.fieldTexts.${error.field}`)}</h1>
      {advice && <p>{knownText(t, advice)}</p>}
    </div>
  );
}

function NameForm({ roomId, onLinkError }: { roomId: string; onLinkError: (e: LookupError) => void }) {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(() => localStorage.getItem(DISPLAY_NAME_STORAGE_KEY)?.slice(0, DISPLAY_NAME_MAX) ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { t } = useTexts();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const displayName = normaliseDisplayName(name);
    if (!displayName) {
      setError(DISPLAY_NAME_REQUIRED);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const session = await startPublicAccess(roomId, displayName);
      localStorage.setItem(DISPLAY_NAME_STORAGE_KEY, session.displayName);
      // The conference reads who we are from the session, which is now the visitor's.
      await refresh();
      navigate(`/meetings/${encodeURIComponent(session.meetingId)}/conference`);
    } catch (err) {
      setBusy(false);
      const first = err instanceof ApiError ? err.errors[0] : undefined;
      if (first?.fields[0] === 'displayName') {
        setError(first.message);
        inputRef.current?.focus();
      } else {
        onLinkError(lookupError(err));
      }
    }
  };

  return (
    <form className="public-access-form" onSubmit={submit} noValidate>
      <h1>{t('publicAccess.welcome')}</h1>
      <p>{t('publicAccess.intro')}</p>
      <label htmlFor={inputId}>{t('publicAccess.nameLabel')}</label>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        autoComplete="nickname"
        maxLength={DISPLAY_NAME_MAX}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          if (normaliseDisplayName(e.target.value)) setError(null);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`}
      />
      <p id={`${inputId}-hint`} className="public-access-hint">
        {t('publicAccess.nameHint', { max: DISPLAY_NAME_MAX })}
      </p>
      {error && (
        <p id={`${inputId}-error`} className="public-access-field-error" role="alert">
          {knownText(t, error)}
        </p>
      )}
      <p>
        <button type="submit" className="public-access-primary" disabled={busy}>
          {t('publicAccess.join')}
        </button>
      </p>
    </form>
  );
}
