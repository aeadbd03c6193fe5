import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ErrorItem } from '@videomote/contract/errors';
import type { SystemMessage } from '@videomote/contract/messages';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { DateTimeField } from '../../../components/ui/date-time-input.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useMessagesStore } from '../components/messages-section.tsx';
import { ErrorList, type FieldIds } from '../components/error-list.tsx';
import { TYPE_TEXT } from '../components/message-type.tsx';
import { emptyForm, formFromMessage, validateForm, type MessageFormValues } from '../message-form.ts';
import { getMessage } from '../api/get-message.ts';
import { createMessage } from '../api/create-message.ts';
import { updateMessage } from '../api/update-message.ts';
import { deleteMessage } from '../api/delete-message.ts';

const IDS: FieldIds = {
  type: 'msg-type-0',
  value: 'msg-value',
  startDate: 'msg-start-date',
  startTime: 'msg-start-time',
  endDate: 'msg-end-date',
  endTime: 'msg-end-time',
};

const errorFor = (errors: ErrorItem[], field: string) => errors.find((e) => e.fields[0] === field)?.message;

const asErrors = (err: unknown): ErrorItem[] =>
  err instanceof ApiError && err.errors.length
    ? err.errors
    : [{ fields: [], message: err instanceof Error && err.message ? err.message : 'Något gick fel' }];

/** /admin/systemmeddelanden/new ('Skapa ett meddelande') and /{id}/edit ('Ändra meddelandet'). */
export function MessageFormPage() {
  const { id } = useParams();
  const editing = !!id;
  useDocumentTitle(editing ? 'Videomöte - Ändra meddelandet' : 'Videomöte - Skapa ett meddelande');
  const navigate = useNavigate();
  const { messages } = useMessagesStore();
  const [values, setValues] = useState<MessageFormValues | null>(editing ? null : emptyForm());
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The version the admin is editing; the server refuses a save over someone else's newer one (409).
  const [version, setVersion] = useState<number | null>(null);
  const [stale, setStale] = useState(false);

  const load = (m: SystemMessage) => {
    setValues(formFromMessage(m));
    setVersion(m.version);
  };

  useEffect(() => {
    if (!id) return;
    const known = messages?.find((m) => m.id === id);
    if (known) return load(known);
    let live = true;
    getMessage(id).then(
      (m) => live && load(m),
      () => {
        // getMessage is not quiet: the api client has already sent the user to /error.
      },
    );
    return () => {
      live = false;
    };
    // Only on entry: the store may refresh meanwhile, but the form must keep what the admin typed.
  }, [id]);

  if (!values) return <LoadingSpinner label="Hämtar meddelandet..." />;

  const set = <K extends keyof MessageFormValues>(key: K, value: MessageFormValues[K]) => setValues({ ...values, [key]: value });
  const backToList = () => navigate('/admin/systemmeddelanden');

  const save = async () => {
    const { errors: found, input } = validateForm(values);
    setErrors(found);
    if (!input) return;
    setBusy(true);
    try {
      if (id) await updateMessage({ ...input, id, version });
      else await createMessage(input);
      backToList();
    } catch (err) {
      setBusy(false);
      setErrors(asErrors(err));
      setStale(err instanceof ApiError && err.status === 409);
    }
  };

  // After a 409: fetch what the other admin saved, so this admin starts again from it instead of overwriting it.
  const reload = async () => {
    if (!id) return;
    setBusy(true);
    try {
      load(await getMessage(id));
      setErrors([]);
      setStale(false);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    setBusy(true);
    try {
      await deleteMessage(id!);
      backToList();
    } catch (err) {
      setBusy(false);
      setErrors(asErrors(err));
    }
  };

  return (
    <>
      <h1>{editing ? 'Ändra meddelandet' : 'Skapa ett meddelande'}</h1>
      <p>
        <Link to="/admin/systemmeddelanden">Tillbaka till systemmeddelanden</Link>
      </p>
      <ErrorList errors={errors} fieldIds={IDS} />
      {stale && (
        <p>
          <Button variant="secondary" onClick={() => void reload()} disabled={busy}>
            Ladda om meddelandet
          </Button>
        </p>
      )}
      <form
        className="admin-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset className="ui-fieldset" aria-describedby={errorFor(errors, 'type') ? 'msg-type-error' : undefined}>
          <legend>Typ</legend>
          {errorFor(errors, 'type') && (
            <span className="ui-field__error" id="msg-type-error">
              {errorFor(errors, 'type')}
            </span>
          )}
          {([0, 1, 2] as const).map((t) => (
            <label key={t} className="choice">
              <input type="radio" name="type" id={`msg-type-${t}`} checked={values.type === t} onChange={() => set('type', t)} />
              <span aria-hidden="true">{TYPE_TEXT[t].icon}</span> {TYPE_TEXT[t].label}
            </label>
          ))}
        </fieldset>

        <Field label="Meddelande" id={IDS.value} required error={errorFor(errors, 'value')}>
          {(control) => <textarea className="ui-input ui-textarea" value={values.value} maxLength={1000} onChange={(e) => set('value', e.target.value)} {...control} />}
        </Field>

        <div className="admin-form__row">
          <DateTimeField label="Startdatum" id={IDS.startDate} kind="date" required error={errorFor(errors, 'startDate')} value={values.startDate} onValueChange={(v) => set('startDate', v)} />
          <DateTimeField label="Starttid" id={IDS.startTime} kind="time" required error={errorFor(errors, 'startTime')} value={values.startTime} onValueChange={(v) => set('startTime', v)} />
        </div>
        <div className="admin-form__row">
          <DateTimeField label="Slutdatum" id={IDS.endDate} kind="date" required error={errorFor(errors, 'endDate')} value={values.endDate} onValueChange={(v) => set('endDate', v)} />
          <DateTimeField label="Sluttid" id={IDS.endTime} kind="time" required error={errorFor(errors, 'endTime')} value={values.endTime} onValueChange={(v) => set('endTime', v)} />
        </div>

        <fieldset className="ui-fieldset">
          <legend>Visas för</legend>
          <label className="choice">
            <input type="checkbox" checked={values.showExternal} onChange={(e) => set('showExternal', e.target.checked)} /> Externa användare (E)
          </label>
          <label className="choice">
            <input type="checkbox" checked={values.showInternal} onChange={(e) => set('showInternal', e.target.checked)} /> Interna användare (I)
          </label>
          <label className="choice">
            <input type="checkbox" checked={values.showKauser} onChange={(e) => set('showKauser', e.target.checked)} /> Leverantörer (L)
          </label>
        </fieldset>

        <div className="admin-form__actions">
          <Button type="submit" busy={busy}>
            Spara
          </Button>
          {editing && (
            <Button variant="danger" onClick={() => setConfirmDelete(true)} disabled={busy}>
              Ta bort
            </Button>
          )}
          <Link to="/admin/systemmeddelanden" className={buttonClass('secondary')}>
            Avbryt
          </Link>
        </div>
      </form>
      <Dialog
        open={confirmDelete}
        role="alertdialog"
        title="Vill du ta bort meddelandet?"
        onClose={() => setConfirmDelete(false)}
        actions={
          <>
            <Button variant="danger" onClick={() => void remove()}>
              Ja, ta bort
            </Button>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              Nej, avbryt
            </Button>
          </>
        }
      >
        <p>Meddelandet slutar visas för användarna direkt.</p>
      </Dialog>
    </>
  );
}
