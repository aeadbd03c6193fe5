import { useEffect, type ReactNode } from 'react';
import { loginUrl, useSession } from '../session-context.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';

/** Guarded routes: an anonymous browser is sent through the identity provider and back. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { session } = useSession();
  useEffect(() => {
    if (session.status === 'anonymous') window.location.assign(loginUrl());
  }, [session.status]);
  if (session.status !== 'signed-in') return <LoadingSpinner label="Loggar in..." />;
  return <>{children}</>;
}
