import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { UserData } from '@videomote/contract/identity';
import { ApiError } from '../../lib/api-client.ts';
import { getUserData } from './api/get-user-data.ts';

export type SessionState =
  | { status: 'loading'; user: null }
  | { status: 'anonymous'; user: null }
  | { status: 'signed-in'; user: UserData };

interface SessionContextValue {
  session: SessionState;
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>({ status: 'loading', user: null });
  const refresh = useCallback(async () => {
    try {
      setSession({ status: 'signed-in', user: await getUserData() });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) setSession({ status: 'anonymous', user: null });
      else setSession({ status: 'anonymous', user: null });
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return <SessionContext.Provider value={{ session, refresh }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() must be used inside <SessionProvider>');
  return value;
}

/** The signed-in user; only for components under a login guard. */
export function useUser(): UserData {
  const { session } = useSession();
  if (session.status !== 'signed-in') throw new Error('useUser() used outside a login guard');
  return session.user;
}

/** Where the browser goes to sign in, returning to the page it came from. */
export const loginUrl = (returnTo: string = window.location.pathname + window.location.search) =>
  `/api/login/start?returnUrl=${encodeURIComponent(returnTo)}`;
