import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useTexts } from '../../../i18n/use-texts.ts';
import { SupportContactList } from '../components/support-contact-list.tsx';

/** /usersupport: where to get help, with the subpages. */
export function UserSupportPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('help.title') }));
  return (
    <article>
      <h1>{t('help.title')}</h1>
      <p className="lead">{t('help.lead')}</p>
      <ul className="link-list">
        <li>
          <Link to="/usersupport/whatisavideomeeting">{t('help.whatIsLink')}</Link>
        </li>
        <li>
          <Link to="/usersupport/troubleshooting">{t('help.troubleshootingLink')}</Link>
        </li>
        <li>
          <Link to="/personaldata">{t('help.personalDataLink')}</Link>
        </li>
        <li>
          <Link to="/accessability">{t('help.accessibilityLink')}</Link>
        </li>
      </ul>
      <h2>{t('help.contactUs')}</h2>
      <p>{t('help.openHours', { hours: t('support.helpHours') })}</p>
      <SupportContactList />
    </article>
  );
}

/** /usersupport/whatisavideomeeting: the help text of booking spec §2 (hours 08:00–16:00, 10 Mbit/s). */
export function WhatIsAVideoMeetingPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('help.whatIs.title') }));
  return (
    <article>
      <h1>{t('help.whatIs.title')}</h1>
      <p className="lead">{t('help.whatIs.lead')}</p>
      <h2>{t('help.whatIs.needHeading')}</h2>
      <ul>
        <li>{t('help.whatIs.need1')}</li>
        <li>{t('help.whatIs.need2')}</li>
        <li>{t('help.whatIs.need3')}</li>
        <li>{t('help.whatIs.need4')}</li>
        <li>{t('help.whatIs.need5')}</li>
      </ul>
      <h2>{t('help.whatIs.howHeading')}</h2>
      <ol>
        <li>{t('help.whatIs.how1')}</li>
        <li>{t('help.whatIs.how2')}</li>
        <li>{t('help.whatIs.how3')}</li>
      </ol>
      <h2>{t('help.whatIs.helpHeading')}</h2>
      <p>{t('help.openHours', { hours: t('support.helpHours') })}</p>
      <SupportContactList />
      <p>
        <Link to="/usersupport/troubleshooting">{t('help.whatIs.troubleshootingLink')}</Link>
      </p>
    </article>
  );
}

/** /usersupport/troubleshooting; `#user-media` is linked from the conference's camera/microphone-denied error. */
export function TroubleshootingPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('help.troubleshooting.title') }));
  return (
    <article>
      <h1>{t('help.troubleshooting.title')}</h1>
      <p className="lead">{t('help.troubleshooting.lead')}</p>

      <section id="user-media" aria-labelledby="user-media-heading" tabIndex={-1}>
        <h2 id="user-media-heading">{t('help.troubleshooting.mediaHeading')}</h2>
        <p>{t('help.troubleshooting.mediaText')}</p>
        <ol>
          <li>{t('help.troubleshooting.media1')}</li>
          <li>{t('help.troubleshooting.media2')}</li>
          <li>{t('help.troubleshooting.media3')}</li>
        </ol>
        <p>{t('help.troubleshooting.mediaMobile')}</p>
      </section>

      <section aria-labelledby="sound-heading">
        <h2 id="sound-heading">{t('help.troubleshooting.soundHeading')}</h2>
        <ul>
          <li>{t('help.troubleshooting.sound1')}</li>
          <li>{t('help.troubleshooting.sound2')}</li>
          <li>{t('help.troubleshooting.sound3')}</li>
          <li>{t('help.troubleshooting.sound4')}</li>
        </ul>
      </section>

      <section id="felanmalan" aria-labelledby="fault-heading" tabIndex={-1}>
        <h2 id="fault-heading">{t('help.troubleshooting.faultHeading')}</h2>
        <p>{t('help.troubleshooting.faultText', { hours: t('support.helpHours') })}</p>
        <SupportContactList />
      </section>
    </article>
  );
}
