import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Trans } from '../../../i18n/trans.tsx';
import { useTexts } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { SIGNUP_CODE_PARAM, SIGNUP_TEXTS, isRegistered, type SignupInfo } from '@videomote/contract/signup';
import { loginUrl, useSession } from '../../session/session-context.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { addExternalUser } from '../api/add-external-user.ts';
import { validateExternalUser } from '../api/validate-external-user.ts';
import { getSignupType } from '../api/get-signup-type.ts';
import { signupErrorMessages, signupHeading, signupLoginStep } from '../signup-flow.ts';
import '../signup.css';

const timeFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });
const when = (info: SignupInfo) => ({
  date: dateFormat.format(new Date(info.startTime)),
  start: timeFormat.format(new Date(info.startTime)),
  end: timeFormat.format(new Date(info.endTime)),
});

/** Presenter / participant self-registration (booking spec §2 signup, §5 signup, §8 signup errors). */
export function SignupPage() {
  const { id = '' } = useParams();
  const [query] = useSearchParams();
  const auto = query.get('consent') === 'true' && query.get('invited') === 'true';
  const code = query.get(SIGNUP_CODE_PARAM);
  const navigate = useNavigate();
  const { session } = useSession();
  const { t } = useTexts();
  const signedIn = session.status === 'signed-in' && session.user.identityKind !== 'anonymous';

  const [info, setInfo] = useState<SignupInfo | null>(null);
  const [consent, setConsent] = useState(auto);
  const [invited, setInvited] = useState(auto);
  const [fieldErrors, setFieldErrors] = useState<{ consent?: string; invited?: string }>({});
  const [serverErrors, setServerErrors] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(auto && !!code);
  // Opened without the link's code: the meeting's type, to name it in the heading (null until known, or unknown).
  const [typeWithoutCode, setTypeWithoutCode] = useState<0 | 1 | null>(null);
  const consentRef = useRef<HTMLInputElement>(null);
  const invitedRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);
  const consentId = useId();
  const invitedId = useId();

  /** A box ticked: its 'required' error goes. */
  const tick = (field: 'consent' | 'invited', set: (v: boolean) => void) => (v: boolean) => {
    set(v);
    if (v) setFieldErrors((f) => ({ ...f, [field]: undefined }));
  };

  const registered = !!info && (isRegistered(info) || info.currentUserRegistered);
  // The server closes registration at the start; offering the form after that only leads to its error.
  const closed = !!info && !info.currentUserRegistered && Date.now() >= new Date(info.startTime).getTime();
  // Without a code the link works only for people already in the meeting, whom the server recognises; anyone else
  // is told plainly that registration needs the organiser's link: no form, and no error, as nothing went wrong.
  const codeMissing = !code && !info?.currentUserRegistered;
  // Sign-up off, an old or wrong link: no form, only what to do.
  const linkRefused = codeMissing || (!info?.currentUserRegistered && !!serverErrors?.includes(SIGNUP_TEXTS.linkInvalid));
  const heading = knownText(t, signupHeading(info?.type ?? (codeMissing ? typeWithoutCode : null), registered));
  useDocumentTitle(t('common.pageTitle', { page: heading }));

  const fetchInfo = useCallback(async () => {
    try {
      setInfo(await validateExternalUser(id, code));
    } catch (e) {
      // Without a code, refused means "not in the meeting": the page says what to do instead (codeMissing).
      if (code) setServerErrors(signupErrorMessages(e));
    }
  }, [id, code]);

  useEffect(() => {
    if (code) return;
    const abort = new AbortController();
    getSignupType(id, abort.signal).then(
      ({ type }) => setTypeWithoutCode(type),
      () => {},
    );
    return () => abort.abort();
  }, [id, code]);

  const register = useCallback(async () => {
    setBusy(true);
    setServerErrors(null);
    try {
      await addExternalUser(id, code);
      navigate('/');
    } catch (e) {
      setServerErrors(signupErrorMessages(e));
      setBusy(false);
      await fetchInfo();
    }
  }, [id, code, navigate, fetchInfo]);

  useEffect(() => {
    if (session.status === 'loading' || started.current) return;
    started.current = true;
    if (auto && code) {
      // Both boxes came ticked from the login step: register at once, logging in first when needed.
      if (signedIn) void register();
      else window.location.assign(loginUrl());
    } else if (signedIn) {
      void fetchInfo();
    }
  }, [session.status, signedIn, auto, code, register, fetchInfo]);

  useEffect(() => {
    if (serverErrors) errorRef.current?.focus();
  }, [serverErrors]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errors = {
      ...(consent ? {} : { consent: SIGNUP_TEXTS.consentRequired }),
      ...(invited ? {} : { invited: SIGNUP_TEXTS.invitedRequired }),
    };
    setFieldErrors(errors);
    if (errors.consent) return consentRef.current?.focus();
    if (errors.invited) return invitedRef.current?.focus();
    const config = await loadClientConfig();
    const step = signupLoginStep({ environment: config.environment, signedIn, meetingId: id, code, selfRegistrationBaseUrl: config.selfRegistrationBaseUrl, loginUrl });
    if (step.kind === 'register') await register();
    else window.location.assign(step.url);
  };

  return (
    <div className="signup">
      <h1>{heading}</h1>
      {info && <p>{info.type === 1 ? t('signup.whenWebcast', when(info)) : t('signup.whenMeeting', when(info))}</p>}

      {serverErrors && (
        <div className="signup-errors" role="alert">
          <h2 ref={errorRef} tabIndex={-1}>
            {t('signup.errorHeading')}
          </h2>
          <ul>
            {serverErrors.map((m) => (
              <li key={m}>{knownText(t, m)}</li>
            ))}
          </ul>
        </div>
      )}

      {busy ? (
        <LoadingSpinner label={t('signup.registering')} />
      ) : info?.currentUserRegistered ? (
        <p>
          <Trans i18nKey="signup.registered" components={{ anchor: <Link to="/meetings" /> }} />
        </p>
      ) : closed ? (
        !serverErrors?.includes(SIGNUP_TEXTS.closed) && <p className="signup-closed">{t('signup.closed')}</p>
      ) : codeMissing ? (
        <p className="signup-link-missing">{t('signup.linkMissing')}</p>
      ) : linkRefused ? null : (
        <form className="signup-form" onSubmit={submit} noValidate>
          <p>
            {info?.type === 1 ? t('signup.introWebcast') : t('signup.introMeeting')}{' '}
            <Trans i18nKey="signup.loginInfo" components={{ anchor: <Link to="/personaldata" /> }} />
          </p>
          <Checkbox
            id={consentId}
            inputRef={consentRef}
            checked={consent}
            onChange={tick('consent', setConsent)}
            label={t('signup.consentLabel')}
            error={fieldErrors.consent && knownText(t, fieldErrors.consent)}
          />
          <Checkbox
            id={invitedId}
            inputRef={invitedRef}
            checked={invited}
            onChange={tick('invited', setInvited)}
            label={t('signup.invitedLabel')}
            error={fieldErrors.invited && knownText(t, fieldErrors.invited)}
          />
          <p>
            <button type="submit" className="signup-primary">
              {t('signup.submit')}
            </button>
          </p>
        </form>
      )}
    </div>
  );
}

function Checkbox(props: {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  error?: string;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className="signup-check">
      <div className="signup-check__row">
        <input
          ref={props.inputRef}
          id={props.id}
          type="checkbox"
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
        />
        <label htmlFor={props.id}>{props.label}</label>
      </div>
      {props.error && (
        <p id={errorId} className="signup-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
