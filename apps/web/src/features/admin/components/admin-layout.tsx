import { Outlet } from 'react-router';
import { RequireAdmin } from '../../session/components/require-admin.tsx';
import '../admin.css';

/** Every /admin page: login, then admins only (non-admins go to / with a console error, booking spec §2). */
export function AdminLayout() {
  return (
    <RequireAdmin>
      <div className="admin">
        <Outlet />
      </div>
    </RequireAdmin>
  );
}
