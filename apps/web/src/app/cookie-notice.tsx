import { useState } from 'react';
import { Link } from 'react-router';
import { readCookie, writeCookie } from '../lib/cookies.ts';
import { Button } from '../components/ui/button.tsx';

export const ACCEPT_COOKIES = 'acceptcookies';

/** Shown until accepted; acceptance is remembered in the `acceptcookies` cookie (booking spec §2, §9). */
export function CookieNotice() {
  const [accepted, setAccepted] = useState(() => readCookie(ACCEPT_COOKIES) === 'true');
  if (accepted) return null;
  return (
    <section className="cookie-notice" aria-labelledby="cookie-notice-title">
      <div className="cookie-notice__inner">
        <h2 id="cookie-notice-title" className="visually-hidden">
          Kakor
        </h2>
        <p>
          Videomöte använder kakor (cookies) som behövs för att tjänsten ska fungera, till exempel för inloggningen. Vi använder inga kakor för
          spårning eller marknadsföring. <Link to="/personaldata">Läs mer om hur vi hanterar personuppgifter</Link>.
        </p>
        <Button
          onClick={() => {
            writeCookie(ACCEPT_COOKIES, 'true', 365);
            setAccepted(true);
          }}
        >
          Jag förstår
        </Button>
      </div>
    </section>
  );
}
