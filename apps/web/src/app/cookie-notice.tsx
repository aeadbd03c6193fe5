import { useState } from 'react';
import { Link } from 'react-router';
import { Trans } from '../i18n/trans.tsx';
import { useTexts } from '../i18n/use-texts.ts';
import { readCookie, writeCookie } from '../lib/cookies.ts';
import { Button } from '../components/ui/button.tsx';

export const ACCEPT_COOKIES = 'acceptcookies';

/** Shown until accepted; acceptance is remembered in the `acceptcookies` cookie (booking spec §2, §9). */
export function CookieNotice() {
  const { t } = useTexts();
  const [accepted, setAccepted] = useState(() => readCookie(ACCEPT_COOKIES) === 'true');
  if (accepted) return null;
  return (
    <section className="cookie-notice" aria-labelledby="cookie-notice-title">
      <div className="cookie-notice__inner">
        <h2 id="cookie-notice-title" className="visually-hidden">
          {t('shell.cookieTitle')}
        </h2>
        <p>
          <Trans i18nKey="shell.cookieText" components={{ anchor: <Link to="/personaldata" /> }} />
        </p>
        <Button
          onClick={() => {
            writeCookie(ACCEPT_COOKIES, 'true', 365);
            setAccepted(true);
          }}
        >
          {t('shell.cookieAccept')}
        </Button>
      </div>
    </section>
  );
}
