import { useEffect, useState } from 'react';
import { Trans } from '../../../i18n/trans.tsx';
import { useTexts } from '../../../i18n/use-texts.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loadClientConfig } from '../../../lib/client-config.ts';

const DPO_EMAIL = 'dataskyddsombud@arbetsformedlingen.se';

/**
 * /personaldata, linked from the lobby: how Videomöte handles personal data (conference spec §2, with the
 * retention wording of §9; the server's retention jobs delete on exactly these terms).
 */
export function PersonalDataPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('personalData.pageTitle') }));
  // The server's settings (RATING_COMMENT_RETENTION_DAYS, ACCESSIBILITY_REPORT_RETENTION_DAYS), so the page says
  // what the retention job does.
  const [days, setDays] = useState<{ comment: number; report: number } | null>(null);
  useEffect(() => {
    void loadClientConfig().then(
      (c) => setDays({ comment: c.ratingCommentDays, report: c.accessibilityReportDays }),
      () => setDays(null),
    );
  }, []);
  return (
    <article className="prose">
      <h1>{t('personalData.title')}</h1>
      <p className="lead">{t('personalData.lead')}</p>

      <section aria-labelledby="pd-controller">
        <h2 id="pd-controller">{t('personalData.controllerHeading')}</h2>
        <p>{t('personalData.controller')}</p>
      </section>

      <section aria-labelledby="pd-how">
        <h2 id="pd-how">{t('personalData.howHeading')}</h2>
        <p>{t('personalData.howIntro')}</p>
        <ul>
          <li>{t('personalData.how1')}</li>
          <li>{t('personalData.how2')}</li>
          <li>{t('personalData.how3')}</li>
        </ul>
        <p>{t('personalData.howSecure')}</p>
      </section>

      <section aria-labelledby="pd-what">
        <h2 id="pd-what">{t('personalData.whatHeading')}</h2>
        <ul>
          <li>{t('personalData.what1')}</li>
          <li>{t('personalData.what2')}</li>
          <li>{t('personalData.what3')}</li>
          <li>{t('personalData.what4')}</li>
        </ul>
        <p>{t('personalData.whatWarning')}</p>
      </section>

      <section aria-labelledby="pd-retention">
        <h2 id="pd-retention">{t('personalData.retentionHeading')}</h2>
        <ul>
          <li>{t('personalData.retention1')}</li>
          <li>{t('personalData.retention2')}</li>
          <li>{t('personalData.retention3')}</li>
          <li>{t('personalData.retention4')}</li>
          {days !== null && (
            <>
              <li>{t('personalData.retentionComment', { days: days.comment })}</li>
              <li>{t('personalData.retentionReport', { days: days.report })}</li>
            </>
          )}
        </ul>
      </section>

      <section aria-labelledby="pd-transfer">
        <h2 id="pd-transfer">{t('personalData.transferHeading')}</h2>
        <p>{t('personalData.transfer1')}</p>
        <p>{t('personalData.transfer2')}</p>
      </section>

      <section aria-labelledby="pd-rights">
        <h2 id="pd-rights">{t('personalData.rightsHeading')}</h2>
        <p>{t('personalData.rights1')}</p>
        <p>
          <Trans
            i18nKey="personalData.rights2"
            values={{ email: DPO_EMAIL }}
            components={{ anchor: <a href={`mailto:${DPO_EMAIL}`} /> }}
          />
        </p>
        <p>{t('personalData.rights3')}</p>
      </section>
    </article>
  );
}
