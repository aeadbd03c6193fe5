import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Feature } from '@videomote/contract/identity';
import { useSession } from '../session-context.tsx';
import { RequireLogin } from './require-login.tsx';

function FeatureOnly({ feature, children }: { feature: Feature; children: ReactNode }) {
  const { session } = useSession();
  const allowed = session.status === 'signed-in' && session.user.features.includes(feature);
  useEffect(() => {
    // Booking spec §2: create and edit without EditMeeting redirect to / and log 'Unauthorized'.
    if (!allowed) console.log('Unauthorized');
  }, [allowed]);
  if (!allowed) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Pages that need a feature (e.g. EditMeeting for create/edit): login first, then / for those without it. */
export function RequireFeature({ feature, children }: { feature: Feature; children: ReactNode }) {
  return (
    <RequireLogin>
      <FeatureOnly feature={feature}>{children}</FeatureOnly>
    </RequireLogin>
  );
}
