import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ErrorItem } from '@videomote/contract/errors';
import type { Meeting } from '@videomote/contract/meetings';
import { MEETING_MAX_PARTICIPANTS, WEBCAST_MAX_PRESENTERS } from '@videomote/contract/meetings';
import { FIELD, MEETING_MESSAGES, validateParticipant } from '@videomote/contract/meeting-rules';
import { useUser } from '../../session/session-context.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { LatestRequest } from '../../../lib/latest-request.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { DateTimeInput, dateTimeHint } from '../../../components/ui/date-time-input.tsx';
import { getMeeting } from '../api/get-meeting.ts';
import { getCopyTemplate } from '../api/get-copy-template.ts';
import { createMeeting } from '../api/create-meeting.ts';
import { updateMeeting } from '../api/update-meeting.ts';
import { ErrorSummary } from '../components/error-summary.tsx';
import { ParticipantCard } from '../components/participant-card.tsx';
import { DeleteDialog } from '../components/delete-dialog.tsx';
import { SIGNUP_SETTING_TEXTS, SignupSetting } from '../components/signup-setting.tsx';
import {
  currentUserCard,
  draftParticipant,
  emptyCard,
  formFromMeeting,
  newForm,
  normaliseTimes,
  requestOf,
  startEditing,
  userLevelOf,
  validateForm,
  type CardState,
  type FormMode,
  type FormState,
} from '../model/meeting-form.ts';
import '../meetings.css';

const TITLES: Record<FormMode, string> = { create: 'Skapa videomöte', edit: 'Ändra videomöte', copy: 'Kopiera videomöte' };

/** The mode follows the path's shape (spec §2): /meetings/new, /meetings/{id}/edit, /meetings/{id}/copy. */
function modeOf(pathname: string): FormMode {
  if (/\/edit\/?$/.test(pathname)) return 'edit';
  if (/\/copy\/?$/.test(pathname)) return 'copy';
  return 'create';
}

export function MeetingFormPage() {
  const { pathname } = useLocation();
  const mode = modeOf(pathname);
  const { id } = useParams();
  const user = useUser();
  const level = userLevelOf(user);
  const navigate = useNavigate();
  useDocumentTitle(`${TITLES[mode]} - Videomöte`);

  const [form, setForm] = useState<FormState | null>(mode === 'create' ? newForm(user) : null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [conflict, setConflict] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [focusSummary, setFocusSummary] = useState(0);

  const requests = useRef(new LatestRequest());
  const load = useCallback(async () => {
    if (mode === 'create' || !id) return;
    const request = requests.current.start();
    let meeting: Meeting;
    try {
      const options = { signal: request.signal, quiet: true };
      meeting = mode === 'edit' ? await getMeeting(id, options) : await getCopyTemplate(id, options);
    } catch (err) {
      if (!request.isCurrent()) return;
      // Spec §8: unauthorised access to edit (or copy) goes to the start page: someone else's meeting (403), one
      // this person is not in (404), or one they are in without being its admin (below). Other failures: /error.
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 403 || status === 404) return unauthorised();
      navigate(`/error?status=${status || 500}`, { replace: true });
      return;
    }
    if (!request.isCurrent()) return;
    if (mode === 'edit' && !meeting.currentUserIsAdmin) return unauthorised();
    setForm(formFromMeeting(meeting, mode, new Date()));
    setErrors([]);
    setConflict(null);
  }, [id, mode, navigate]);
  function unauthorised() {
    console.error('Unauthorized');
    navigate('/', { replace: true });
  }

  useEffect(() => {
    if (mode === 'create') setForm(newForm(user));
    // Only a change of path reloads; `load` and `user` are stable for one page visit.
    else void load();
    return () => requests.current.cancel();
  }, [mode, id]);

  useEffect(() => {
    if (focusSummary) summaryRef.current?.focus();
  }, [focusSummary]);

  if (!form) return <LoadingSpinner label="Hämtar mötet..." />;

  const anyEditing = form.participants.some((c) => c.editMode);
  const atLimit = form.participants.length >= (form.type === 1 ? WEBCAST_MAX_PRESENTERS : MEETING_MAX_PARTICIPANTS);
  const errorFor = (field: string) => errors.find((e) => e.fields[0] === field)?.message;
  const participantErrors = (i: number) => errors.filter((e) => e.fields[0]?.startsWith(`participant-${i}-`));
  const update = (patch: Partial<FormState>) => setForm({ ...form, ...patch });
  const setCard = (i: number, card: CardState) => update({ participants: form.participants.map((c, j) => (j === i ? card : c)) });

  function changeType(type: 0 | 1) {
    if (!form || type === form.type) return;
    // Spec §4: a type change resets the participants to the current user with the default role for the type.
    setForm({ ...form, type, participants: [currentUserCard(user, type)] });
    setErrors([]);
  }

  function showErrors(list: ErrorItem[]) {
    setErrors(list);
    setFocusSummary((n) => n + 1);
  }

  function saveCard(i: number) {
    const card = form!.participants[i]!;
    const cardErrors = validateParticipant(draftParticipant({ ...card, editMode: false }), i, new Date());
    const others = errors.filter((e) => !e.fields[0]?.startsWith(`participant-${i}-`) && e.fields[0] !== FIELD.participants);
    if (cardErrors.length) {
      setErrors([...others, ...cardErrors]);
      document.getElementById(cardErrors[0]!.fields[0]!)?.focus();
      return;
    }
    setErrors(others);
    setCard(i, { ...card, editMode: false, isNew: false, backup: null });
    window.setTimeout(() => document.getElementById(`participant-${i}`)?.focus(), 0);
  }

  function cancelCard(i: number) {
    const card = form!.participants[i]!;
    const others = errors.filter((e) => !e.fields[0]?.startsWith(`participant-${i}-`));
    setErrors(others);
    if (card.isNew) update({ participants: form!.participants.filter((_, j) => j !== i) });
    else setCard(i, { ...(card.backup ?? card), editMode: false, backup: null });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form || saving) return;
    const typed = normaliseTimes(form);
    setForm(typed);
    const clientErrors = validateForm(typed, { now: new Date(), started: typed.started });
    if (clientErrors.length) return showErrors(clientErrors);
    setSaving(true);
    try {
      const saved = typed.id ? await updateMeeting(requestOf(typed, user)) : await createMeeting(requestOf(typed, user));
      navigate(`/meetings/${saved.id}/${typed.id ? 'updated' : 'saved'}`, { state: { meeting: saved } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setConflict(err.message || MEETING_MESSAGES.conflict);
        summaryRef.current?.focus();
      } else if (err instanceof ApiError) {
        showErrors(err.errors.length ? err.errors : [{ fields: [], message: err.message }]);
      } else {
        showErrors([{ fields: [], message: 'Något gick fel. Försök igen om en stund.' }]);
      }
    } finally {
      setSaving(false);
    }
  }

  const saveButton = (
    <button type="submit" className="vm-button" disabled={saving}>
      Spara videomöte
    </button>
  );
  const fieldProps = (field: string, hint?: string) => {
    const error = errorFor(field);
    const describedBy = [hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' ');
    return { id: field, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined };
  };
  const fieldError = (field: string) =>
    errorFor(field) ? (
      <span id={`${field}-error`} className="vm-field__error">
        {errorFor(field)}
      </span>
    ) : null;

  return (
    <div className="vm-page">
      <form className="vm-form" onSubmit={submit} noValidate aria-labelledby="form-heading">
        <div className="vm-row vm-row--spread">
          <h1 id="form-heading">{TITLES[mode]}</h1>
          <div className="vm-row">
            <Link className="vm-button vm-button--secondary" to="/meetings">
              Dina videomöten
            </Link>
            {saveButton}
          </div>
        </div>

        {conflict && (
          <div className="vm-alert vm-alert--warning" role="alert">
            <p>{conflict}</p>
            <button type="button" className="vm-button" onClick={() => void load()}>
              Ladda om mötet
            </button>
          </div>
        )}
        {errors.length > 0 && <ErrorSummary ref={summaryRef} errors={errors} />}

        <section aria-labelledby="about-heading">
          <h2 id="about-heading">Om mötet</h2>
          {form.started && (
            <div className="vm-alert vm-alert--warning" role="status">
              <p>
                <strong>{MEETING_MESSAGES.started}</strong>. Datum och tider kan inte ändras. Vill du boka ett nytt möte med samma
                uppgifter kan du kopiera mötet.
              </p>
              <Link className="vm-button vm-button--secondary" to={`/meetings/${form.id}/copy`}>
                Kopiera mötet
              </Link>
            </div>
          )}
          {level !== 'KA' && (
            <fieldset className="vm-field" id={FIELD.type}>
              <legend>Typ av möte</legend>
              <div className="vm-radio">
                <label>
                  <input type="radio" name="type" checked={form.type === 0} onChange={() => changeType(0)} /> Videomöte
                </label>
                <label>
                  <input type="radio" name="type" checked={form.type === 1} onChange={() => changeType(1)} /> Informationsmöte
                </label>
              </div>
            </fieldset>
          )}
          <div className="vm-field">
            <label htmlFor={FIELD.title}>Rubrik</label>
            <span id={`${FIELD.title}-hint`} className="vm-field__hint">
              Skriv inga personuppgifter i rubriken.
            </span>
            <input {...fieldProps(FIELD.title, 'hint')} value={form.title} maxLength={200} onChange={(e) => update({ title: e.target.value })} />
            {fieldError(FIELD.title)}
          </div>
          <div className="vm-alert vm-alert--warning">
            Dela inte känsliga uppgifter eller personuppgifter i mötets rubrik eller i mötets chatt.
          </div>
          <div className="vm-times">
            {(
              [
                [FIELD.date, 'Datum', 'date'],
                [FIELD.startTime, 'Starttid', 'time'],
                [FIELD.endTime, 'Sluttid', 'time'],
              ] as const
            ).map(([field, label, kind]) => (
              <div className="vm-field" key={field}>
                <label htmlFor={field}>{label}</label>
                <span id={`${field}-hint`} className="vm-field__hint">
                  {dateTimeHint(kind)}
                </span>
                <DateTimeInput
                  {...fieldProps(field, 'hint')}
                  kind={kind}
                  value={form[field]}
                  disabled={form.started}
                  onValueChange={(value) => setForm((f) => f && { ...f, [field]: value })}
                />
                {fieldError(field)}
              </div>
            ))}
          </div>
        </section>

        <section aria-labelledby="participants-heading" id={FIELD.participants} tabIndex={-1}>
          <h2 id="participants-heading">{form.type === 1 ? 'Presentatörer' : 'Deltagare'}</h2>
          <p className="vm-field__hint">
            {form.type === 1
              ? `Ett informationsmöte kan ha högst ${WEBCAST_MAX_PRESENTERS} presentatörer. Vi rekommenderar högst 4.`
              : `Ett videomöte kan ha högst ${MEETING_MAX_PARTICIPANTS} deltagare. Vi rekommenderar högst 4.`}
          </p>
          {fieldError(FIELD.participants)}
          <ul className="vm-list">
            {form.participants.map((card, i) => (
              <ParticipantCard
                key={card.key}
                card={card}
                index={i}
                type={form.type}
                level={level}
                errors={participantErrors(i)}
                canEditCards={!anyEditing}
                onChange={(c) => setCard(i, c)}
                onEdit={() => setCard(i, startEditing(card))}
                onSave={() => saveCard(i)}
                onCancel={() => cancelCard(i)}
                onRemove={() => setRemoving(i)}
              />
            ))}
          </ul>
          {removing !== null && form.participants[removing] && (
            <DeleteDialog
              title="Ta bort deltagaren"
              text={
                `Vill du ta bort ${form.participants[removing]!.displayName || 'deltagaren'} från mötet?` +
                // The link still works for them: only a new code keeps them from signing up again.
                (form.participants[removing]!.selfRegistered ? ` ${SIGNUP_SETTING_TEXTS.removeHint}` : '')
              }
              onConfirm={() => {
                update({ participants: form.participants.filter((_, j) => j !== removing) });
                setRemoving(null);
              }}
              onCancel={() => setRemoving(null)}
            />
          )}
          {!anyEditing && !atLimit && (
            <div className="vm-row vm-section">
              <button
                type="button"
                className="vm-button vm-button--secondary"
                onClick={() => {
                  update({ participants: [...form.participants, emptyCard(form.type === 1 ? 'PresenterExternal' : '')] });
                  window.setTimeout(() => document.getElementById(FIELD.role(form.participants.length))?.focus(), 0);
                }}
              >
                {form.type === 1 ? 'Lägg till presentatör' : 'Lägg till deltagare'}
              </button>
            </div>
          )}
        </section>

        <SignupSetting type={form.type} checked={form.signupEnabled} onChange={(signupEnabled) => update({ signupEnabled })} />

        <p className="vm-section">
          <strong>Alla fält är obligatoriska. Glöm inte att spara.</strong>
        </p>
        <div className="vm-row">
          {saveButton}
          <button type="button" className="vm-button vm-button--secondary" onClick={() => navigate('/meetings')}>
            Avbryt
          </button>
        </div>
      </form>
    </div>
  );
}
