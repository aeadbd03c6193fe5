import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTexts } from '../i18n/use-texts.ts';
import { onApiError } from '../lib/api-client.ts';
import { loadClientConfig } from '../lib/client-config.ts';
import { DEFAULT_TITLE } from '../lib/use-document-title.ts';
import { InactivityWatcher } from '../features/session/components/inactivity-watcher.tsx';
import { AppHeader } from './app-header.tsx';
import { SideMenu } from './side-menu.tsx';
import { AppFooter } from './app-footer.tsx';
import { CookieNotice } from './cookie-notice.tsx';
import { SystemMessages } from '../features/system-messages/components/system-messages.tsx';
import { RatingDialog } from '../features/rating/components/rating-dialog.tsx';

const MENU_ID = 'side-menu';

/** Header, side menu, footer, cookie notice, inactivity and rating dialogs around every page (booking spec §2). */
export function Shell() {
  const location = useLocation();
  const { t } = useTexts();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [releaseVersion, setReleaseVersion] = useState<string | null>(null);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    void loadClientConfig().then(
      (c) => setReleaseVersion(c.releaseVersion),
      () => setReleaseVersion(null),
    );
  }, []);

  // Booking spec §8: a failed API call above 400 leaves for /error (api-client exempts the two lookups that
  // handle their own failures, and quiet calls).
  useEffect(
    () =>
      onApiError((error) => {
        if (error.status > 400) navigate(`/error?status=${error.status}`);
      }),
    [navigate],
  );

  // Default title first (layout effect), so a page's own title (a passive effect) wins. Not at the first render:
  // the HTML's title is the page's already (the server writes a first screen's), and replaced by the default it read
  // 'Videomöte' until the page's effect ran, a change a screen reader may announce.
  useLayoutEffect(() => {
    if (!firstRender.current) document.title = DEFAULT_TITLE;
  }, [location.pathname]);

  // The menu closes when a navigation ends; focus goes to the new page (or the #fragment asked for), so
  // keyboard and screen-reader users start at the top of what changed.
  useEffect(() => {
    setMenuOpen(false);
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus({ preventScroll: true });
      }
    } else if (!firstRender.current) {
      window.scrollTo(0, 0);
      const heading = main.current?.querySelector<HTMLElement>('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      } else {
        main.current?.focus({ preventScroll: true });
      }
    }
    firstRender.current = false;
  }, [location.pathname, location.search, location.hash]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('shell.skipLink')}
      </a>
      <AppHeader menuId={MENU_ID} menuOpen={menuOpen} onToggleMenu={() => setMenuOpen((o) => !o)} />
      <SideMenu
        id={MENU_ID}
        open={menuOpen}
        releaseVersion={releaseVersion}
        onNavigate={() => setMenuOpen(false)}
        onClose={() => {
          setMenuOpen(false);
          document.querySelector<HTMLElement>(`[aria-controls="${MENU_ID}"]`)?.focus();
        }}
      />
      <main id="main" ref={main} className="app-main" tabIndex={-1}>
        <SystemMessages />
        <Outlet />
      </main>
      <AppFooter />
      <CookieNotice />
      <InactivityWatcher />
      <RatingDialog />
    </div>
  );
}
