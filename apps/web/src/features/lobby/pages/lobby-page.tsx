import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { LobbyMeeting } from '@videomote/contract/lobby';
import { RequireLogin } from '../../session/components/require-login.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { getLobbyMeeting } from '../api/get-lobby-meeting.ts';
import { lobbyConsent } from '../../../lib/media-token.ts';
import { deviceHandover } from '../../../lib/device-handover.ts';
import { joinIntent } from '../../../lib/join-intent.ts';
import { ConnectionCheck } from '../components/connection-check.tsx';
import { DeviceTest } from '../components/device-test.tsx';
import { useTexts } from '../../../i18n/use-texts.ts';
import '../lobby.css';

export function LobbyPage() {
  return (
    <RequireLogin>
      <Lobby />
    </RequireLogin>
  );
}

const showIntent = () => joinIntent.shown();

function Lobby() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Not a participant (403) or no such meeting (404): the API client sends the person to /error.
  const lookup = useQuery(['lobby', id], (signal) => getLobbyMeeting(id, signal));
  const meeting: LobbyMeeting | null = lookup.data ?? null;
  const failed = lookup.error !== null;
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState(false);
  const [joining, setJoining] = useState(false);
  const consentRef = useRef<HTMLInputElement>(null);
  const consentId = useId();
  const { t } = useTexts();
  const heading = meeting?.type === 1 ? t('lobby.headingWebcast') : t('lobby.headingMeeting');
  useDocumentTitle(t('common.pageTitle', { page: heading }));

  const join = (e: FormEvent) => {
    e.preventDefault();
    if (!consent) {
      setConsentError(true);
      consentRef.current?.focus();
      return;
    }
    // The token was asked for with the consent as the box was ticked (lib/consent-requests.ts); the meeting screen
    // takes that answer and shows a refusal (not a member: the error page) itself.
    setJoining(true);
    lobbyConsent.joining(id);
    deviceHandover.joining(id);
    navigate(`/meetings/${encodeURIComponent(id)}/conference`);
  };

  return (
    <div className="lobby">
      <button type="button" className="lobby-back" onClick={() => navigate('/')}>
        <span aria-hidden="true">←</span> {t('lobby.back')}
      </button>
      <h1>{heading}</h1>
      {failed ? (
        <p role="alert">{t('lobby.noAccess')}</p>
      ) : !meeting ? (
        <LoadingSpinner />
      ) : (
        <>
          <p className="lobby__title">{meeting.title}</p>
          <section aria-labelledby="lobby-devices-heading">
            <h2 id="lobby-devices-heading">{t('lobby.deviceTest')}</h2>
            <DeviceTest />
            <ConnectionCheck meetingId={meeting.id} />
          </section>
          <section aria-labelledby="lobby-info-heading">
            <h2 id="lobby-info-heading">{meeting.type === 1 ? t('lobby.webcastHeading') : t('lobby.personalDataHeading')}</h2>
            <p>{meeting.type === 1 ? t('lobby.webcast') : t('lobby.personalData')}</p>
            <p>
              <Link to="/personaldata">{t('lobby.personalDataLink')}</Link>
            </p>
          </section>
          {/* The first pointer or focus on the form (the consent must be ticked before joining) has the meeting
              screen made ready (lib/join-intent.ts), ahead of the click on 'Anslut till mötet'. */}
          <form className="lobby-consent" onSubmit={join} noValidate onPointerEnter={showIntent} onPointerDown={showIntent} onFocus={showIntent}>
            <div className="lobby-consent__row">
              <input
                ref={consentRef}
                id={consentId}
                type="checkbox"
                checked={consent}
                onChange={(e) => {
                  setConsent(e.target.checked);
                  // Given (and the token asked for) as the box is ticked; withdrawn as it is unticked.
                  if (e.target.checked) {
                    setConsentError(false);
                    lobbyConsent.ticked(id);
                  } else lobbyConsent.unticked(id);
                }}
                aria-invalid={consentError || undefined}
                aria-describedby={consentError ? `${consentId}-error` : undefined}
              />
              <label htmlFor={consentId}>{t('lobby.consent')}</label>
            </div>
            {consentError && (
              <p id={`${consentId}-error`} className="lobby-field-error" role="alert">
                {t('lobby.consentRequired')}
              </p>
            )}
            <p>
              <button type="submit" className="lobby-primary" disabled={joining} aria-busy={joining || undefined}>
                {t('lobby.join')}
              </button>{' '}
              {/* The meeting screen shows once the call's media are negotiated (conference routes): till then, this. */}
              <span role="status">
                {joining ? t('conference.status.connecting') : ''}
              </span>
            </p>
          </form>
        </>
      )}
    </div>
  );
}
