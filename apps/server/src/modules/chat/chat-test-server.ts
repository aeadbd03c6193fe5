import { afterEach } from 'vitest';
import { insertMeeting, runningMeetingTimes, type FixtureParticipant } from '../../testing/fixtures.ts';
import { useTestApp, type FileTestApp } from '../../testing/use-test-app.ts';
import { SESSION_COOKIE, type SessionUser } from '../../platform/session.ts';
import type { Persona } from '../identity/personas.ts';
import { ChatTestClient } from './chat-test-client.ts';

export interface ChatTestServer {
  readonly t: FileTestApp;
  /** The Cookie header of a fresh session of `who`. */
  cookieOf(who: Persona['key'] | SessionUser): Promise<string>;
  /** Connects to the meeting's chat with this Cookie header (or none) and headers; closed after each test. */
  connect(meetingId: string, cookie: string | null, headers?: Record<string, string>, options?: { autoPong?: boolean }): Promise<ChatTestClient>;
  /** Logs in anew (a fresh session each call) and connects to the meeting's chat; closed after each test. */
  join(meetingId: string, who: Persona['key'] | SessionUser): Promise<ChatTestClient>;
  /** A meeting running now (started 10 minutes ago, an hour left, within today in Stockholm: runningMeetingTimes). */
  meetingNow(participants: FixtureParticipant[], type?: 0 | 1): Promise<{ id: string; roomId: string; participantIds: string[] }>;
}

/**
 * The running server the chat protocol tests talk to: the real app on PGlite (or TEST_DATABASE_URL), listening on
 * a free port, emptied before each test, with every client the test opened closed after it.
 */
export function useChatServer(): ChatTestServer {
  const t = useTestApp(undefined, { listen: true });
  const clients: ChatTestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const cookieOf = async (who: Persona['key'] | SessionUser) => `${SESSION_COOKIE}=${(await t.as(who)).cookies[SESSION_COOKIE]}`;
  const connect: ChatTestServer['connect'] = async (meetingId, cookie, headers, options) => {
    const client = await ChatTestClient.connect(`ws://${t.host}/chat/${meetingId}`, cookie, headers, options);
    clients.push(client);
    return client;
  };
  return {
    t,
    cookieOf,
    connect,
    join: async (meetingId, who) => connect(meetingId, await cookieOf(who)),
    meetingNow(participants, type = 0) {
      return insertMeeting(t.db, t.app.deps.pins, { type, ...runningMeetingTimes(t.clock.now()), participants });
    },
  };
}
