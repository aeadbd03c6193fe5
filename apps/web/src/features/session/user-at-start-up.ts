import type { UserData } from '@videomote/contract/identity';
import { getUserData } from './api/get-user-data.ts';

/**
 * Every page waits for who is signed in before its first screen: that question is asked by the app's first small
 * script (app/early-start.ts), while the app's bundle still downloads and runs, and handed to SessionProvider once.
 * Asked only after the bundle had run, it was one more round trip before the first paint (on slow 4G about 0.3 s of
 * Lighthouse's first contentful paint, every page). No React here: the early script must not wait for it.
 */
let atStartUp: Promise<UserData | null> | null = null;

export function askUserAtStartUp(): void {
  atStartUp ??= getUserData();
  atStartUp.catch(() => {});
}

/** The answer asked for at start-up (once), or null when there is none (taken already, or never asked). */
export function takeUserAskedAtStartUp(): Promise<UserData | null> | null {
  const early = atStartUp;
  atStartUp = null;
  return early;
}
