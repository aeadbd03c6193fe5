import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { UserData } from '@videomote/contract/identity';
import { getUserData } from './api/get-user-data.ts';
import { logoutSession } from './api/logout.ts';

export type SessionState =
  | { status: 'loading'; user: null }
  | { status: 'anonymous'; user: null }
  | { status: 'signed-in'; user: UserData };

interface SessionContextValue {
  session: SessionState;
  refresh(): Promise<void>;
  /**
   * Ends the session on the server. 'manual' then goes through the identity provider's logout back to the
   * start page (booking spec §4); 'inactivity' leaves the caller to show /logged-out.
   */
  logout(reason: 'manual' | 'inactivity'): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

// Every page waits for the user: asked for as the app's code starts (main.tsx), not after the first render, which
// on a busy phone can be hundreds of ms later.
let atStartUp: Promise<UserData | null> | null = null;
export function askUserAtStartUp(): void {
  atStartUp ??= getUserData();
  atStartUp.catch(() => {});
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>({ status: 'loading', user: null });
  const refresh = useCallback(async () => {
    const early = atStartUp;
    atStartUp = null;
    try {
      const user = await (early ?? getUserData());
      // A transition: the first render of the page behind the login guard (the call screen, say) yields to the
      // page's network events instead of holding them for its whole length.
      startTransition(() => setSession(user ? { status: 'signed-in', user } : { status: 'anonymous', user: null }));
    } catch {
      // 403 or an unreachable server also mean: not signed in; guards send the user to log in.
      startTransition(() => setSession({ status: 'anonymous', user: null }));
    }
  }, []);
  const logout = useCallback(async (reason: 'manual' | 'inactivity') => {
    try {
      await logoutSession();
    } catch {
      // Already gone on the server (expired): still leave as if logged out.
    }
    if (reason === 'manual') {
      // Straight on to the provider's logout and the agency home page. The session state stays as it is for the
      // moment the page has left: marked anonymous, a login guard (on /meetings, say) would send the browser to
      // the login page instead, and being the later navigation, it would win.
      window.location.assign('/api/login/endsession');
      return;
    }
    setSession({ status: 'anonymous', user: null });
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  const value = useMemo(() => ({ session, refresh, logout }), [session, refresh, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
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
