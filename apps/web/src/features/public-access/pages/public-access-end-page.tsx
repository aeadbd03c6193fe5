import { useTexts } from '../../../i18n/use-texts.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import '../public-access.css';

/** After a public webcast (booking spec §2): thanks, and the same link works again. */
export function PublicAccessEndPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('publicAccess.endedTitle') }));
  return (
    <div className="public-access">
      <h1>{t('publicAccess.ended')}</h1>
      <p>{t('publicAccess.thanks')}</p>
      <p>{t('publicAccess.reuse')}</p>
    </div>
  );
}
