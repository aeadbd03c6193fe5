import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { useTexts } from '../i18n/use-texts.ts';
import { useSession } from '../features/session/session-context.tsx';
import { authenticationVariant } from '../features/session/auth-variant.ts';

export const ADMIN_LINKS = [
  { to: '/admin/groups', label: 'Grupper' },
  { to: '/admin/appsettings', label: 'AppSettings' },
  { to: '/admin/statistik', label: 'Statistik' },
  { to: '/admin/felsokning', label: 'Felsökning' },
  { to: '/admin/systemmeddelanden', label: 'Systemmeddelanden' },
] as const;

interface SideMenuProps {
  id: string;
  open: boolean;
  releaseVersion: string | null;
  onClose(): void;
  /** A link in the menu was followed. */
  onNavigate(): void;
}

/**
 * The side menu of booking spec §2: 320 px wide, 'Mina möten' except in the webcast variant, 'Administration' with
 * its five links for admins only, 'Användarstöd', and the release version. The shell closes it when a
 * navigation ends; Escape closes it here and hands focus back to the menu button.
 */
export function SideMenu({ id, open, releaseVersion, onClose, onNavigate }: SideMenuProps) {
  const { session } = useSession();
  const { t } = useTexts();
  const isAdmin = session.status === 'signed-in' && session.user.isAdmin;
  const webcast = authenticationVariant() === 'Webcast' || (session.status === 'signed-in' && session.user.identityKind === 'anonymous');
  const nav = useRef<HTMLElement>(null);

  useEffect(() => {
    if (open) nav.current?.querySelector<HTMLElement>('a')?.focus();
  }, [open]);

  return (
    <>
      {open && <div className="side-menu-backdrop" aria-hidden="true" onClick={onClose} />}
      <nav
        id={id}
        ref={nav}
        className="side-menu"
        aria-label={t('shell.mainMenu')}
        hidden={!open}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
        onClick={(event) => {
          // A link to the page already shown is no navigation, yet the user is done with the menu.
          if ((event.target as Element).closest('a')) onNavigate();
        }}
      >
        <ul>
          {!webcast && (
            <li>
              <NavLink to="/meetings" end>
                {t('shell.myMeetings')}
              </NavLink>
            </li>
          )}
          {isAdmin && (
            <li>
              <NavLink to="/admin" end>
                Administration
              </NavLink>
              <ul className="side-menu__sub" aria-label="Administration">
                {ADMIN_LINKS.map((l) => (
                  <li key={l.to}>
                    <NavLink to={l.to}>{l.label}</NavLink>
                  </li>
                ))}
              </ul>
            </li>
          )}
          <li>
            <NavLink to="/usersupport">{t('shell.userSupport')}</NavLink>
          </li>
        </ul>
        {releaseVersion && <p className="side-menu__version">{t('shell.version', { version: releaseVersion })}</p>}
      </nav>
    </>
  );
}
