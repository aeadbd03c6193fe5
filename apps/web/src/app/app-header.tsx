import { Link } from 'react-router';
import { useSession } from '../features/session/session-context.tsx';
import { authenticationVariant } from '../features/session/auth-variant.ts';
import { isExternalUser } from '../features/session/roles.ts';

interface AppHeaderProps {
  menuId: string;
  menuOpen: boolean;
  onToggleMenu(): void;
}

/** Header: menu button and, for the external-user role in the CIAM variant only, 'Logga ut' (booking spec §2). */
export function AppHeader({ menuId, menuOpen, onToggleMenu }: AppHeaderProps) {
  const { session, logout } = useSession();
  const showLogout = session.status === 'signed-in' && isExternalUser(session.user) && authenticationVariant() === 'CIAM';
  return (
    <header className="app-header">
      <button type="button" className="app-header__menu" aria-expanded={menuOpen} aria-controls={menuId} onClick={onToggleMenu}>
        <span className="menu-icon" aria-hidden="true" />
        Meny
      </button>
      <Link to="/" className="app-header__brand">
        Videomöte
      </Link>
      {showLogout && (
        <button type="button" className="app-header__logout" onClick={() => void logout('manual')}>
          Logga ut
        </button>
      )}
    </header>
  );
}
