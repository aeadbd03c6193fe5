/**
 * After a deploy the previous version's code chunks are gone (the server answers 404), so an open tab fails to
 * load the next page's code. Reloading once fetches the new version. A stamp in sessionStorage makes sure this
 * happens at most once per RELOAD_GUARD_MS: if the code still cannot be loaded after the reload, the error is
 * passed on to the router's error page instead of reloading again and again.
 */
export const RELOAD_KEY = 'videomote:chunk-reload-at';
export const RELOAD_GUARD_MS = 30_000;

export interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  reload: () => void;
  now: () => number;
}

const browserEnv = (): ReloadEnv => {
  let storage: ReloadEnv['storage'] = null;
  try {
    storage = window.sessionStorage;
  } catch {
    // Storage blocked: without a guard we never reload.
  }
  return { storage, reload: () => window.location.reload(), now: () => Date.now() };
};

/** Reloads the page if no reload for a failed chunk happened lately; false when the guard stops it. */
export function reloadOnce(env: ReloadEnv): boolean {
  try {
    if (!env.storage) return false;
    const last = Number(env.storage.getItem(RELOAD_KEY));
    if (last && env.now() - last >= 0 && env.now() - last < RELOAD_GUARD_MS) return false;
    env.storage.setItem(RELOAD_KEY, String(env.now()));
  } catch {
    return false;
  }
  env.reload();
  return true;
}

/** Wraps a lazy route import: a failure reloads the page once; a second failure is thrown to the error page. */
export function reloadOnChunkError<T>(load: () => Promise<T>, env: () => ReloadEnv = browserEnv): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      // The page is going away: keep the router waiting (its loading state stays up) instead of showing an error.
      if (reloadOnce(env())) return new Promise<T>(() => {});
      throw error;
    }
  };
}
