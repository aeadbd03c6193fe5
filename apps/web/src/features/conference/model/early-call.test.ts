import { describe, expect, it } from 'vitest';
import { earlyCallAbandoned, meetingOfConferencePath, NAVIGATING_FOR_MS, UNTAKEN_FOR_MS } from './early-call.ts';

describe('earlyCallAbandoned', () => {
  const id = '3f0c2a9e-1b7d-4c55-9a51-0d6f3e2b8c41';
  const fromLobby = { meetingId: id, startedOn: `/meetings/${id}/lobby` };
  const opened = { meetingId: id, startedOn: `/meetings/${id}/conference` };

  it('keeps the call while the browser is on its meeting screen (with or without a trailing slash)', () => {
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/conference`, waitedMs: 1_000 }, fromLobby)).toBe(false);
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/conference/`, waitedMs: 1_000 }, opened)).toBe(false);
  });

  it('keeps it while the lobby still shows (the screen code is loading), for a while', () => {
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/lobby`, waitedMs: 1_000 }, fromLobby)).toBe(false);
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/lobby`, waitedMs: NAVIGATING_FOR_MS }, fromLobby)).toBe(true);
  });

  it('closes it once the browser is elsewhere: another page, another meeting, the webcast name form', () => {
    expect(earlyCallAbandoned({ pathname: '/meetings', waitedMs: 1_000 }, fromLobby)).toBe(true);
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/lobby`, waitedMs: 1_000 }, opened)).toBe(true);
    expect(earlyCallAbandoned({ pathname: '/meetings/another/conference', waitedMs: 1_000 }, opened)).toBe(true);
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/conference/publicaccess`, waitedMs: 1_000 }, opened)).toBe(true);
  });

  it('closes it after waiting too long even on its screen', () => {
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/conference`, waitedMs: UNTAKEN_FOR_MS - 1 }, opened)).toBe(false);
    expect(earlyCallAbandoned({ pathname: `/meetings/${id}/conference`, waitedMs: UNTAKEN_FOR_MS }, opened)).toBe(true);
  });
});

describe('meetingOfConferencePath', () => {
  it('reads the meeting of its screen, and nothing of any other page', () => {
    expect(meetingOfConferencePath('/meetings/3f0c2a9e/conference')).toBe('3f0c2a9e');
    expect(meetingOfConferencePath('/meetings/a%20b/conference/')).toBe('a b');
    expect(meetingOfConferencePath('/meetings/3f0c2a9e/lobby')).toBeNull();
    expect(meetingOfConferencePath('/meetings/3f0c2a9e/conference/publicaccess')).toBeNull();
    expect(meetingOfConferencePath('/meetings')).toBeNull();
  });
});
