import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { POLL_COMMENT_MAX, POLL_DEFAULT_RATING } from '@videomote/contract/polls';
import { useTextsIn } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { useLanguageState } from '../../../i18n/language-store.ts';
import { directionOf } from '../../../i18n/languages.ts';
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
  // The dialog opens as the call is left for the (Swedish) meeting list: it speaks the call's language.
  const { chosen } = useLanguageState();
  const { t } = useTextsIn(chosen);
  const label = (n: number) => t(`rating.label${n as 1 | 2 | 3 | 4 | 5}`);
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
      return setError(err instanceof Error && err.message ? err.message : t('rating.sendFailed'));
    }
    setBusy(false);
    if (decision.thenHelp) setView('help');
    else close();
  };

  const user = session.status === 'signed-in' ? session.user : null;
  // Booking spec §6: employees and KA users get the fault report; the others the service desk's contacts.
  const faultReport = !!user && (user.identityKind === 'staff' || user.userLevel === 'Intern' || user.userLevel === 'KA');
  const open = !!meetingId && enabled === true;
  // Closed, as on every page but the one a call was just left for, only the empty <dialog> is built: the shell renders
  // this on every page, and building its texts and form was a share of each page's first render in the main thread's
  // profile of /meetings under Lighthouse (docs/benchmarks-lighthouse.md). The same Dialog stays, so closing still
  // returns the focus.
  if (!open) return <Dialog open={false} title="" className="rating-dialog" lang={chosen} dir={directionOf(chosen)} />;

  return (
    <Dialog
      open={open}
      title={view === 'rate' ? t('rating.title') : t('rating.thanksTitle')}
      onClose={close}
      closeLabel={t('rating.close')}
      lang={chosen}
      dir={directionOf(chosen)}
      className="rating-dialog"
      actions={
        view === 'rate' ? (
          <>
            <Button variant="secondary" onClick={close}>
              {t('rating.close')}
            </Button>
            <Button onClick={() => void submit()} busy={busy}>
              {t('rating.send')}
            </Button>
          </>
        ) : (
          <Button onClick={close}>{t('rating.close')}</Button>
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
            <legend>{t('rating.question')}</legend>
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
                    {t('rating.star', { n, label: label(n) })}
                  </span>
                </label>
              ))}
            </div>
            <p id={`${ids}-current`} className="rating-stars__current" aria-live="polite">
              {rating === null ? t('rating.noRating') : t('rating.current', { n: rating, label: label(rating) })}
            </p>
            <Button variant="tertiary" onClick={() => setRating(null)} disabled={rating === null}>
              {t('rating.clear')}
            </Button>
          </fieldset>
          <div className="ui-field">
            <label className="ui-field__label" htmlFor={`${ids}-comment`}>
              {t('rating.comment')}
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
              {t('rating.count', { count: comment.length, max: POLL_COMMENT_MAX })}
            </span>
          </div>
          {error && (
            <Alert variant="error" live="alert">
              <p>{knownText(t, error)}</p>
            </Alert>
          )}
        </form>
      ) : (
        <div className="rating-help">
          <p>{t('rating.helpIntro')}</p>
          <h3>{t('rating.troubleshooting')}</h3>
          <p>
            {t('rating.troubleshootingText')}{' '}
            <Link to="/usersupport/troubleshooting" onClick={close}>
              {t('rating.troubleshootingLink')}
            </Link>
          </p>
          <h3>{t('rating.faultReport')}</h3>
          {faultReport ? (
            <p>
              {t('rating.faultReportStaff')}{' '}
              <Link to="/usersupport/troubleshooting#felanmalan" onClick={close}>
                {t('rating.faultReportLink')}
              </Link>
            </p>
          ) : (
            <p>
              {t('rating.faultReportOthers')}{' '}
              <Link to="/usersupport" onClick={close}>
                {t('rating.contactsLink')}
              </Link>
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
