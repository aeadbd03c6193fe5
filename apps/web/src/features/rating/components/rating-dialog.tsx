import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { POLL_COMMENT_MAX, POLL_DEFAULT_RATING, RATING_LABELS } from '@videomote/contract/polls';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { useSession } from '../../session/session-context.tsx';
import { clearRatingRequest, pendingRating, subscribeRating } from '../rating-requests.ts';
import { decideRating } from '../rating-form.ts';
import { sendPoll } from '../api/send-poll.ts';
import { getFeatureFlags } from '../api/get-feature-flags.ts';
import '../rating.css';

const STARS = [1, 2, 3, 4, 5] as const;

/**
 * The call rating dialog (booking spec §2, §4, §5): opens on `rate-call`, five stars (default 3) as a radio
 * group, an optional comment. Closing, however it happens, resets it.
 */
export function RatingDialog() {
  const meetingId = useSyncExternalStore(subscribeRating, pendingRating, () => null);
  const { session } = useSession();
  // null until the switch is known, so a dialog switched off never flashes open.
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [rating, setRating] = useState<number | null>(POLL_DEFAULT_RATING);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<'rate' | 'help'>('rate');
  const ids = useId().replace(/:/g, '');

  // An administrator can switch rating off (AppSettings); ask when a rating is requested, not before.
  useEffect(() => {
    if (!meetingId) return;
    let live = true;
    getFeatureFlags().then(
      (flags) => {
        if (!live) return;
        const on = flags?.callRating !== false;
        setEnabled(on);
        if (!on) clearRatingRequest();
      },
      // The switch could not be read: asking for a rating is the safer default than losing it.
      () => live && setEnabled(true),
    );
    return () => {
      live = false;
    };
  }, [meetingId]);

  const close = () => {
    clearRatingRequest();
    setRating(POLL_DEFAULT_RATING);
    setComment('');
    setError(null);
    setBusy(false);
    setView('rate');
    setEnabled(null);
  };

  const submit = async () => {
    const decision = decideRating(rating, comment);
    if (decision.kind === 'close') return close();
    if (decision.kind === 'error') return setError(decision.message);
    setBusy(true);
    setError(null);
    try {
      await sendPoll({ callQuality: decision.callQuality, comment: decision.comment, meetingId: meetingId! });
    } catch (err) {
      setBusy(false);
      return setError(err instanceof Error && err.message ? err.message : 'Betyget kunde inte skickas.');
    }
    setBusy(false);
    if (decision.thenHelp) setView('help');
    else close();
  };

  const user = session.status === 'signed-in' ? session.user : null;
  // Booking spec §6: employees and KA users get the fault report; the others the service desk's contacts.
  const faultReport = !!user && (user.identityKind === 'staff' || user.userLevel === 'Intern' || user.userLevel === 'KA');
  const open = !!meetingId && enabled === true;

  return (
    <Dialog
      open={open}
      title={view === 'rate' ? 'Hur var samtalet?' : 'Tack för ditt svar!'}
      onClose={close}
      closeLabel="Stäng"
      className="rating-dialog"
      actions={
        view === 'rate' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Stäng
            </Button>
            <Button onClick={() => void submit()} busy={busy}>
              Skicka
            </Button>
          </>
        ) : (
          <Button onClick={close}>Stäng</Button>
        )
      }
    >
      {view === 'rate' ? (
        <form
          className="rating-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <fieldset className="rating-stars" aria-describedby={`${ids}-current`}>
            <legend>Hur upplevde du ljud- och bildkvaliteten?</legend>
            <div className="rating-stars__row">
              {STARS.map((n) => (
                <label key={n} className={`rating-star${rating !== null && n <= rating ? ' rating-star--on' : ''}`}>
                  <input
                    type="radio"
                    name={`${ids}-rating`}
                    value={n}
                    checked={rating === n}
                    onChange={() => {
                      setRating(n);
                      setError(null);
                    }}
                    className="rating-star__input"
                  />
                  <span className="rating-star__icon" aria-hidden="true">
                    {rating !== null && n <= rating ? '★' : '☆'}
                  </span>
                  <span className="visually-hidden">
                    {n} {RATING_LABELS[n]}
                  </span>
                </label>
              ))}
            </div>
            <p id={`${ids}-current`} className="rating-stars__current" aria-live="polite">
              {rating === null ? 'Inget betyg valt' : `${rating} av 5: ${RATING_LABELS[rating as 1 | 2 | 3 | 4 | 5]}`}
            </p>
            <Button variant="tertiary" onClick={() => setRating(null)} disabled={rating === null}>
              Rensa betyg
            </Button>
          </fieldset>
          <div className="ui-field">
            <label className="ui-field__label" htmlFor={`${ids}-comment`}>
              Kommentar (frivilligt)
            </label>
            <textarea
              id={`${ids}-comment`}
              className="ui-input ui-textarea"
              value={comment}
              maxLength={POLL_COMMENT_MAX}
              aria-describedby={`${ids}-count`}
              onChange={(e) => {
                setComment(e.target.value);
                setError(null);
              }}
            />
            <span id={`${ids}-count`} className="ui-field__hint">
              {comment.length} av {POLL_COMMENT_MAX} tecken
            </span>
          </div>
          {error && (
            <Alert variant="error" live="alert">
              <p>{error}</p>
            </Alert>
          )}
        </form>
      ) : (
        <div className="rating-help">
          <p>Vad tråkigt att samtalet inte fungerade som det skulle. Här finns hjälp:</p>
          <h3>Felsökning</h3>
          <p>
            Kontrollera ljud och bild, uppkopplingen (minst 10 Mbit/s upp och ned) och att ingen annan app använder kameran.{' '}
            <Link to="/usersupport/troubleshooting" onClick={close}>
              Felsök ljud och bild
            </Link>
          </p>
          <h3>Felanmälan</h3>
          {faultReport ? (
            <p>
              Om problemet kvarstår:{' '}
              <Link to="/usersupport/troubleshooting#felanmalan" onClick={close}>
                Gör en felanmälan
              </Link>
            </p>
          ) : (
            <p>
              Om problemet kvarstår kan du kontakta kundtjänst per telefon eller e-post.{' '}
              <Link to="/usersupport" onClick={close}>
                Kontaktuppgifter finns under Användarstöd
              </Link>
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
