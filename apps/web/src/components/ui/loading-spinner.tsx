import { useTexts } from '../../i18n/use-texts.ts';

export function LoadingSpinner({ label }: { label?: string }) {
  const { t } = useTexts();
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__circle" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
    </div>
  );
}
