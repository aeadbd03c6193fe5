import type { ReactNode, RefObject } from 'react';
import type { CallModel, CallState, StreamTile } from '../model/call-model.ts';
import { isInterpreterTile, tilePinKey, type WhoIsWho } from '../model/who-is-who.ts';
import type { MediaSession } from '../media/media-session.ts';
import { forceMute } from '../api/force-mute.ts';
import { conferenceSlots } from '../slots.ts';
import type { Pins } from '../hooks/use-pins.ts';
import { KeptMark, PinButton } from './pin-button.tsx';
import { AdminSection, BlurToggle, SignalMenu } from './tile-tools.tsx';

interface Input {
  meetingId: string;
  model: CallModel;
  state: CallState;
  who: WhoIsWho;
  pins: Pins;
  session: RefObject<MediaSession | null>;
}

/**
 * What each tile carries besides its video (handed to tiles by TileExtrasContext): the kept mark, the server's
 * identity of the person, the pin button, then the own camera's blur toggle or another's admin section and signal menu.
 */
export function tileExtras({ meetingId, model, state, who, pins, session }: Input): (tile: StreamTile) => ReactNode {
  const TileIdentity = conferenceSlots.tileIdentity;
  const tools = (tile: StreamTile) => {
    if (tile.isOwn) {
      return tile.videoType === 'camera' && state.blur.supported ? <BlurToggle on={state.blur.on} onToggle={() => void session.current?.setBlur(!state.blur.on)} /> : null;
    }
    if (tile.videoType !== 'camera') return null;
    return (
      <>
        {who.isModerator && (
          <AdminSection
            tile={tile}
            onForceMute={(connectionId) => void forceMute(meetingId, connectionId).catch((err: Error) => model.addError('FORCE_MUTE_FAILED', err.message))}
          />
        )}
        <SignalMenu tile={tile} stats={state.stats[tile.streamId]} />
      </>
    );
  };
  return (tile) => {
    const key = tilePinKey(who, tile);
    const pinned = pins.pins.includes(key);
    const interpreter = isInterpreterTile(who, tile);
    const participantId = who.participantOf(tile);
    return (
      <>
        {(interpreter || pinned) && <KeptMark interpreter={interpreter ? who.roleOf(tile) : null} />}
        {TileIdentity && participantId && tile.videoType === 'camera' && <TileIdentity meetingId={meetingId} participantId={participantId} />}
        <PinButton name={tile.displayName} pinned={pinned} onToggle={() => pins.toggle(key)} />
        {tools(tile)}
      </>
    );
  };
}
