import { useTexts } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { useRef, useState, type FormEvent } from 'react';
import { ACCESSIBILITY_LIMITS, FEEDBACK_MESSAGES } from '@videomote/contract/feedback';
import type { ErrorItem } from '@videomote/contract/errors';
import { ApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { reportAccessibilityProblem } from '../api/report-accessibility-problem.ts';

const FIELD_IDS: Record<string, string> = { description: 'a11y-description', pageUrl: 'a11y-page', contact: 'a11y-contact' };

/** The DOS law's feedback form: report an accessibility problem; stored for the administrators. */
export function AccessibilityReportForm() {
  const [description, setDescription] = useState('');
  const [pageUrl, setPageUrl] = useState('');
  const [contact, setContact] = useState('');
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const { t } = useTexts();

  const errorFor = (field: string) => {
    const message = errors.find((e) => e.fields[0] === field)?.message;
    return message && knownText(t, message);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local: ErrorItem[] = [];
    if (!description.trim()) local.push({ fields: ['description'], message: FEEDBACK_MESSAGES.descriptionRequired });
    else if (description.length > ACCESSIBILITY_LIMITS.description) local.push({ fields: ['description'], message: FEEDBACK_MESSAGES.descriptionTooLong });
    setErrors(local);
    if (local.length) {
      requestAnimationFrame(() => summary.current?.focus());
      return;
    }
    setBusy(true);
    try {
      await reportAccessibilityProblem({ description, pageUrl: pageUrl || null, contact: contact || null });
      setSent(true);
      setDescription('');
      setPageUrl('');
      setContact('');
    } catch (err) {
      if (err instanceof ApiError && err.errors.length) {
        setErrors(err.errors);
        requestAnimationFrame(() => summary.current?.focus());
      } else {
        setFailure(err instanceof ApiError ? err.message : t('accessibility.form.failed'));
      }
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <Alert variant="success" title={t('accessibility.form.thanksTitle')}>
        <p>{t('accessibility.form.thanks')}</p>
        <p>
          <Button variant="tertiary" onClick={() => setSent(false)}>
            {t('accessibility.form.another')}
          </Button>
        </p>
      </Alert>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="a11y-report-heading">
      {errors.length > 0 && (
        <div ref={summary} tabIndex={-1} className="ui-alert ui-alert--error" role="alert">
          <div className="ui-alert__body">
            <p className="ui-alert__title">{t('accessibility.form.summary')}</p>
            <ul>
              {errors.map((e) => (
                <li key={e.fields.join()}>
                  <a href={`#${FIELD_IDS[e.fields[0] ?? ''] ?? ''}`}>{knownText(t, e.message)}</a>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {failure && <Alert variant="error">{knownText(t, failure)}</Alert>}
      <TextAreaField
        id={FIELD_IDS.description}
        label={t('accessibility.form.description')}
        hint={t('accessibility.form.descriptionHint')}
        required
        error={errorFor('description')}
        value={description}
        maxLength={ACCESSIBILITY_LIMITS.description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <TextField
        id={FIELD_IDS.pageUrl}
        label={t('accessibility.form.page')}
        hint={t('accessibility.form.pageHint')}
        error={errorFor('pageUrl')}
        value={pageUrl}
        maxLength={ACCESSIBILITY_LIMITS.pageUrl}
        onChange={(e) => setPageUrl(e.target.value)}
      />
      <TextField
        id={FIELD_IDS.contact}
        label={t('accessibility.form.contact')}
        hint={t('accessibility.form.contactHint')}
        autoComplete="email"
        error={errorFor('contact')}
        value={contact}
        maxLength={ACCESSIBILITY_LIMITS.contact}
        onChange={(e) => setContact(e.target.value)}
      />
      <Button type="submit" busy={busy}>
        {t('accessibility.form.submit')}
      </Button>
    </form>
  );
}
