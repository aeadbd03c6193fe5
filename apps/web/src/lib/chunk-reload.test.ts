import { describe, expect, it } from 'vitest';
import { RELOAD_GUARD_MS, RELOAD_KEY, reloadOnChunkError, type ReloadEnv } from './chunk-reload.ts';

function fakeBrowser(start = 1_000_000) {
  const store = new Map<string, string>();
  const state = { reloads: 0, time: start };
  const env: ReloadEnv = {
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    reload: () => void state.reloads++,
    now: () => state.time,
  };
  return { env: () => env, store, state };
}

const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/old-abc12345.js'));
const settled = (p: Promise<unknown>) => Promise.race([p.then(() => 'resolved', () => 'rejected'), new Promise((r) => setTimeout(() => r('pending'), 20))]);

describe('reloadOnChunkError', () => {
  it('passes a loaded module through without reloading', async () => {
    const b = fakeBrowser();
    await expect(reloadOnChunkError(() => Promise.resolve({ Component: 'x' }), b.env)()).resolves.toEqual({ Component: 'x' });
    expect(b.state.reloads).toBe(0);
    expect(b.store.has(RELOAD_KEY)).toBe(false);
  });

  it('reloads once when the chunk is missing and keeps the router waiting meanwhile', async () => {
    const b = fakeBrowser();
    expect(await settled(reloadOnChunkError(gone, b.env)())).toBe('pending');
    expect(b.state.reloads).toBe(1);
    expect(b.store.get(RELOAD_KEY)).toBe(String(b.state.time));
  });

  it('does not reload again after the reload (no loop): the error reaches the error page', async () => {
    const b = fakeBrowser();
    expect(await settled(reloadOnChunkError(gone, b.env)())).toBe('pending');
    b.state.time += 2_000; // the reloaded page fails the same way
    await expect(reloadOnChunkError(gone, b.env)()).rejects.toThrow(/dynamically imported module/);
    expect(b.state.reloads).toBe(1);
  });

  it('may reload again for a later deploy, once the guard time has passed', async () => {
    const b = fakeBrowser();
    expect(await settled(reloadOnChunkError(gone, b.env)())).toBe('pending');
    b.state.time += RELOAD_GUARD_MS;
    expect(await settled(reloadOnChunkError(gone, b.env)())).toBe('pending');
    expect(b.state.reloads).toBe(2);
  });

  it('never reloads when session storage is unavailable, since nothing could stop a loop', async () => {
    const b = fakeBrowser();
    const env = () => ({ ...b.env(), storage: null });
    await expect(reloadOnChunkError(gone, env)()).rejects.toBeInstanceOf(TypeError);
    const throwing = () => ({ ...b.env(), storage: { getItem: () => { throw new Error('SecurityError'); }, setItem: () => {} } });
    await expect(reloadOnChunkError(gone, throwing)()).rejects.toBeInstanceOf(TypeError);
    expect(b.state.reloads).toBe(0);
  });
});
