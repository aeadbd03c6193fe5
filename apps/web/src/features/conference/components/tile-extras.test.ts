import { describe, expect, it } from 'vitest';
import type { InvitedParticipant, MediaConnection } from '@videomote/contract/media';
import { allTiles, initialCallState, type CallState } from '../model/call-model.ts';
import { whoIsWho } from '../model/who-is-who.ts';
import { pinKey } from '../model/stage.ts';
import { showsTheSame, tileExtras, type TileProps } from './tile-extras.tsx';

const person = (id: string, extra: Partial<InvitedParticipant> = {}): InvitedParticipant => ({ id, displayName: id, role: 'Participant', moderator: false, currentUser: false, ...extra });
const connection = (connectionId: string, participantId: string): MediaConnection =>
  ({ connectionId, participantId, displayName: `Namn ${connectionId}`, feedId: 1, screenFeedId: null, hasAudio: true, hasVideo: true }) as MediaConnection;
const participants = [person('me', { currentUser: true, moderator: true }), person('tolk', { role: 'SignLanguageInterpreter' }), person('anna')];
const stats = { video: null, audio: null } as unknown as CallState['stats'][string];

function call(over: Partial<CallState> = {}): CallState {
  return {
    ...initialCallState(),
    connectionId: 'c0',
    connections: [connection('c0', 'me'), connection('c1', 'tolk'), connection('c2', 'anna')],
    own: { stream: null, hasAudio: true, hasVideo: true, alive: true },
    blur: { supported: true, on: false },
    ...over,
  };
}

/** Every tile of the page as the page hands them over. */
function tilesOf(state: CallState, pins: string[] = []): Map<string, TileProps> {
  const who = whoIsWho(participants, state);
  return new Map(allTiles(state).map((tile) => [tile.streamId, { tile, focused: false, extras: tileExtras(tile, who, pins, state) }]));
}

describe('a tile’s extras', () => {
  it('carry the pin, the interpreter’s role, the own blur and the others’ figures, each only where it belongs', () => {
    const tiles = tilesOf(call({ stats: { 'camera-c2': stats } }), [pinKey('anna', 'camera')]);
    const own = tiles.get('own-camera')!.extras;
    expect(own).toMatchObject({ participantId: 'me', pinned: false, interpreterRole: null, blur: { supported: true, on: false }, stats: undefined });
    expect(tiles.get('camera-c1')!.extras).toMatchObject({ participantId: 'tolk', interpreterRole: 'SignLanguageInterpreter', blur: null, moderator: true });
    expect(tiles.get('camera-c2')!.extras).toMatchObject({ participantId: 'anna', pinned: true, pinKey: pinKey('anna', 'camera'), stats });
  });

  it('show the same when the call changes elsewhere, and not when the tile’s own stream, figures or pin change', () => {
    const before = call();
    const tiles = tilesOf(before);
    const stream = {} as MediaStream;
    // Another's video arrives: only that tile differs.
    const arrived = tilesOf({ ...before, media: { 'camera-c2': stream } });
    expect(showsTheSame(tiles.get('camera-c1')!, arrived.get('camera-c1')!)).toBe(true);
    expect(showsTheSame(tiles.get('own-camera')!, arrived.get('own-camera')!)).toBe(true);
    expect(showsTheSame(tiles.get('camera-c2')!, arrived.get('camera-c2')!)).toBe(false);
    // Its figures, its pin, the focus.
    expect(showsTheSame(tiles.get('camera-c1')!, tilesOf({ ...before, stats: { 'camera-c1': stats } }).get('camera-c1')!)).toBe(false);
    expect(showsTheSame(tiles.get('camera-c1')!, tilesOf(before, [pinKey('tolk', 'camera')]).get('camera-c1')!)).toBe(false);
    expect(showsTheSame(tiles.get('camera-c1')!, { ...tiles.get('camera-c1')!, focused: true })).toBe(false);
    // Its video turned off for want of bandwidth (a field the tile has only then).
    const off = tilesOf({ ...before, videoLayers: { 'camera-c2': { off: 'bandwidth', singleLayer: false, substream: null, temporal: null } } });
    expect(showsTheSame(tiles.get('camera-c2')!, off.get('camera-c2')!)).toBe(false);
  });
});
