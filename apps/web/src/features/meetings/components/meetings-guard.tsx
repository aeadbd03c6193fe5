import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { RequireLogin } from '../../session/components/require-login.tsx';
import { useSession } from '../../session/session-context.tsx';

/** Meetings need a real login; a webcast visitor's session goes to the public-access-ended page (spec §2). */
function NoVisitors({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const visitor = session.status === 'signed-in' && session.user.identityKind === 'anonymous';
  useEffect(() => {
    if (visitor) navigate('/publicaccessend', { replace: true });
  }, [visitor, navigate]);
  return visitor ? null : <>{children}</>;
}

export function MeetingsGuard({ children }: { children: ReactNode }) {
  return (
    <RequireLogin>
      <NoVisitors>{children}</NoVisitors>
    </RequireLogin>
  );
}
