import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../session-context.tsx';
import { RequireLogin } from './require-login.tsx';

function AdminOnly({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const allowed = session.status === 'signed-in' && session.user.isAdmin;
  useEffect(() => {
    // Booking spec §2: the admin guard logs a console error and sends non-admins to the start page.
    if (!allowed) console.error('Administration kräver administratörsbehörighet');
  }, [allowed]);
  if (!allowed) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Admin pages: login first, then non-admins go to / (the server refuses them anyway). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  return (
    <RequireLogin>
      <AdminOnly>{children}</AdminOnly>
    </RequireLogin>
  );
}
