import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { loginUrl, useSession } from '../session-context.tsx';
import { authenticationVariant } from '../auth-variant.ts';
import { isWebcastVisitor } from '../roles.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';

export interface RequireLoginProps {
  children: ReactNode;
  /**
   * Pages an anonymous webcast visitor may see. By default a webcast-type session is sent to /publicaccessend:
   * the meetings area needs a login through the identity provider (booking spec §2, guards).
   */
  allowWebcastSession?: boolean;
}

/** Guarded routes: an anonymous browser is sent through the identity provider and back. */
export function RequireLogin({ children, allowWebcastSession = false }: RequireLoginProps) {
  const { session } = useSession();
  useEffect(() => {
    if (session.status === 'anonymous') window.location.assign(loginUrl());
  }, [session.status]);
  if (session.status !== 'signed-in') return <LoadingSpinner label="Loggar in..." />;
  if (!allowWebcastSession && (isWebcastVisitor(session.user) || authenticationVariant() === 'Webcast')) {
    return <Navigate to="/publicaccessend" replace />;
  }
  return <>{children}</>;
}
