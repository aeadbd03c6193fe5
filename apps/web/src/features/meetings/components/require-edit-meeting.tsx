import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useUser } from '../../session/session-context.tsx';

/** Create and edit need the EditMeeting feature; without it: to the start page, logging 'Unauthorized' (spec §2). */
export function RequireEditMeeting({ children }: { children: ReactNode }) {
  const user = useUser();
  const navigate = useNavigate();
  const allowed = user.features.includes('EditMeeting');
  useEffect(() => {
    if (!allowed) {
      console.error('Unauthorized');
      navigate('/', { replace: true });
    }
  }, [allowed, navigate]);
  return allowed ? <>{children}</> : null;
}
