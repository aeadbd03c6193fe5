import { Link, useLocation } from 'react-router';
import { useTexts } from '../i18n/use-texts.ts';
import { isExternalScreen } from '../i18n/language-choice.ts';
import { LanguageSwitcher } from '../i18n/language-switcher.tsx';
import { useSession } from '../features/session/session-context.tsx';
import { authenticationVariant } from '../features/session/auth-variant.ts';
import { isExternalUser } from '../features/session/roles.ts';

interface AppHeaderProps {
  menuId: string;
  menuOpen: boolean;
  onToggleMenu(): void;
}

/**
 * Header: menu button and, for the external-user role in the CIAM variant only, 'Logga ut' (booking spec §2); on the
 * screens an external person meets, the language choice.
 */
export function AppHeader({ menuId, menuOpen, onToggleMenu }: AppHeaderProps) {
  const { session, logout } = useSession();
  const { t } = useTexts();
  const { pathname } = useLocation();
  const showLogout = session.status === 'signed-in' && isExternalUser(session.user) && authenticationVariant() === 'CIAM';
  return (
    <header className="app-header">
      <button type="button" className="app-header__menu" aria-expanded={menuOpen} aria-controls={menuId} onClick={onToggleMenu}>
        <span className="menu-icon" aria-hidden="true" />
        <span className="app-header__menu-text">{t('shell.menu')}</span>
      </button>
      <Link to="/" className="app-header__brand">
        Videomöte
      </Link>
      {isExternalScreen(pathname) && <LanguageSwitcher className="app-header__language" />}
      {showLogout && (
        <button type="button" className="app-header__logout" onClick={() => void logout('manual')}>
          {t('shell.logout')}
        </button>
      )}
    </header>
  );
}
