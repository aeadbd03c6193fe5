import { describe, expect, it } from 'vitest';
import type { MediaConnection } from '@videomote/contract/media';
import { initialCallState, type CallState } from './call-model.ts';
import { callStatus, canShareScreen, participantCount, showsSpinner } from './conference-view.ts';

const state = (over: Partial<CallState>): CallState => ({ ...initialCallState(), ...over });
const three = [{ connectionId: 'a' }, { connectionId: 'b' }, { connectionId: 'c' }] as MediaConnection[];

describe('conference view', () => {
  it('counts people only once connected', () => {
    expect(participantCount(state({ connectionStatus: 'connecting', connections: three }))).toBe(0);
    expect(participantCount(state({ connectionStatus: 'connected', connections: three }))).toBe(3);
  });

  it("says 'Ansluter...' before the first try and while reconnecting, never a failure it has not had", () => {
    expect(callStatus(state({}))).toBe('Ansluter...');
    expect(callStatus(state({ connectionStatus: 'connected', reconnecting: true, connections: three }))).toBe('Ansluter...');
    expect(callStatus(state({ connectionStatus: 'disconnected' }))).toBe('Anslutning misslyckades');
  });

  it("says 'Återansluter...' while media restarts in a call that goes on, the count otherwise", () => {
    expect(callStatus(state({ connectionStatus: 'connected', mediaReconnecting: true, connections: three }))).toBe('Återansluter...');
    expect(callStatus(state({ connectionStatus: 'connected', connections: three }))).toBe('3 personer deltar i mötet');
    expect(callStatus(state({ connectionStatus: 'connected', connections: three.slice(0, 1) }))).toBe('Ingen annan är ansluten till mötet');
  });

  it('spins for the first connection only', () => {
    expect(showsSpinner(state({}))).toBe(true);
    expect(showsSpinner(state({ connectionStatus: 'connecting' }))).toBe(true);
    expect(showsSpinner(state({ connectionStatus: 'connecting', reconnecting: true }))).toBe(false);
    expect(showsSpinner(state({ connectionStatus: 'connected' }))).toBe(false);
  });

  it("offers 'Dela skärm' only with a screen to capture and the group's ScreenShare feature", () => {
    const on = state({ capabilities: { ...initialCallState().capabilities, screenShare: true } });
    expect(canShareScreen(true, on)).toBe(true);
    expect(canShareScreen(false, on)).toBe(false);
    expect(canShareScreen(true, state({}))).toBe(false);
  });
});
