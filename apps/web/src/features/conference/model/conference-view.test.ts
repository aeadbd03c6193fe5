import { describe, expect, it } from 'vitest';
import type { MediaConnection } from '@videomote/contract/media';
import { initialCallState, type CallState } from './call-model.ts';
import { callStatus, canShareScreen, connectionFailureLine, participantCount, showsSpinner } from './conference-view.ts';
import { CallModel } from './call-model.ts';

const state = (over: Partial<CallState>): CallState => ({ ...initialCallState(), ...over });
const three = [{ connectionId: 'a' }, { connectionId: 'b' }, { connectionId: 'c' }] as MediaConnection[];

describe('conference view', () => {
  it('counts people only once connected', () => {
    expect(participantCount(state({ connectionStatus: 'connecting', connections: three }))).toBe(0);
    expect(participantCount(state({ connectionStatus: 'connected', connections: three }))).toBe(3);
  });

  it("counts the people in a webcast as the participants panel does, not the connections a viewer is told of", () => {
    // A viewer among one presenter and three viewers is told of the presenter only (and itself): the panel's 4.
    const viewerSees = three.slice(0, 2);
    expect(callStatus(state({ connectionStatus: 'connected', connections: viewerSees }), 4)).toBe('4 personer deltar i mötet');
    expect(participantCount(state({ connectionStatus: 'connected', connections: viewerSees }), 4)).toBe(4);
    // Before the presenter comes: the viewers are the meeting's people.
    expect(callStatus(state({ connectionStatus: 'connected', connections: three.slice(0, 1) }), 3)).toBe('3 personer deltar i mötet');
    // Presence not there yet (or the chat socket down): the media connections, never fewer than those.
    expect(callStatus(state({ connectionStatus: 'connected', connections: three }), null)).toBe('3 personer deltar i mötet');
    expect(participantCount(state({ connectionStatus: 'connected', connections: three }), 1)).toBe(3);
    expect(participantCount(state({ connectionStatus: 'connecting', connections: three }), 4)).toBe(0);
  });

  it("gives the chat the failure's own message, not only 'Anslutning misslyckades'", () => {
    const m = new CallModel();
    expect(connectionFailureLine(m.getState().errors)).toBeNull();
    m.addError('networkDisconnected');
    expect(connectionFailureLine(m.getState().errors)).toBeNull();
    m.connectionFailed('Bild och ljud kom inte fram genom nätverket. En brandvägg kan stoppa videosamtal.');
    expect(connectionFailureLine(m.getState().errors)).toBe('Bild och ljud kom inte fram genom nätverket. En brandvägg kan stoppa videosamtal.');
    // The banner says what the spec says.
    expect(m.getState().errors.find((e) => e.key === 'connectionFailed')?.message).toBe('Anslutning misslyckades');
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
