import { createContext, useContext } from 'react';
import type { CallState, ReceivedVideo, StreamTile } from '../model/call-model.ts';
import type { StreamStats } from '../model/network-quality.ts';
import { isInterpreterTile, tilePinKey, type WhoIsWho } from '../model/who-is-who.ts';
import { conferenceSlots } from '../slots.ts';
import { KeptMark, PinButton } from './pin-button.tsx';
import { AdminSection, BlurToggle, SignalMenu } from './tile-tools.tsx';

/**
 * What a tile carries besides its video, as plain values the page works out for each tile, so that a tile can tell
 * whether anything it shows has changed (video-tile.tsx renders only then): while a call joins, the call model
 * changes with nearly every signalling message, each change concerning one tile or none.
 */
export interface TileExtras {
  /** The pin's key (see tilePinKey) and whether this user pinned the tile. */
  pinKey: string;
  pinned: boolean;
  /** An interpreter's camera, kept on stage: the booked role; null for anyone else. */
  interpreterRole: string | null;
  /** The booked participant the tile shows, whose identity assurance it names. */
  participantId: string | null;
  /** This user moderates: another's camera tile offers force-mute. */
  moderator: boolean;
  /** The own camera's background blur, where the browser can; null on every other tile. */
  blur: CallState['blur'] | null;
  /** A remote camera's last second of figures and the video layer received, for its signal bar. */
  stats: StreamStats | undefined;
  received: ReceivedVideo | undefined;
}

/** One tile's extras from who is who, this user's pins and the call's state. */
export function tileExtras(tile: StreamTile, who: WhoIsWho, pins: readonly string[], state: Pick<CallState, 'blur' | 'stats' | 'videoLayers'>): TileExtras {
  const pinKey = tilePinKey(who, tile);
  const remoteCamera = !tile.isOwn && tile.videoType === 'camera';
  return {
    pinKey,
    pinned: pins.includes(pinKey),
    interpreterRole: isInterpreterTile(who, tile) ? (who.roleOf(tile) ?? null) : null,
    participantId: who.participantOf(tile),
    moderator: who.isModerator,
    blur: tile.isOwn && tile.videoType === 'camera' && state.blur.supported ? state.blur : null,
    stats: remoteCamera ? state.stats[tile.streamId] : undefined,
    received: remoteCamera ? state.videoLayers[tile.streamId] : undefined,
  };
}

/** A tile on the page: its stream, where it stands, and what it carries. */
export interface TileProps {
  tile: StreamTile;
  focused: boolean;
  mini?: boolean;
  extras: TileExtras;
}

/** Whether a tile would show the same as before: the page makes its stream and extras objects anew on every change. */
export function showsTheSame(a: TileProps, b: TileProps): boolean {
  return a.focused === b.focused && a.mini === b.mini && sameFields(a.tile, b.tile) && sameFields(a.extras, b.extras);
}

function sameFields<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}

/** What a tile's buttons do: decided by the page, which knows the session; the same for every tile. */
export interface TileActions {
  meetingId: string;
  maximise(streamId: string): void;
  minimise(): void;
  togglePin(key: string): void;
  toggleBlur(): void;
  forceMute(connectionId: string): void;
}

/** Tiles are rendered both in the main grid and among the minis, so the page hands their actions down by context. */
export const TileActionsContext = createContext<TileActions | null>(null);

/**
 * The kept mark, the server's identity of the person, the pin button, then the own camera's blur toggle or
 * another's admin section and signal menu.
 */
export function TileTools({ tile, extras }: { tile: StreamTile; extras: TileExtras }) {
  const actions = useContext(TileActionsContext);
  if (!actions) return null;
  const TileIdentity = conferenceSlots.tileIdentity;
  const kept = extras.interpreterRole !== null || extras.pinned;
  return (
    <>
      {kept && <KeptMark interpreter={extras.interpreterRole} />}
      {TileIdentity && extras.participantId && tile.videoType === 'camera' && <TileIdentity meetingId={actions.meetingId} participantId={extras.participantId} />}
      <PinButton name={tile.displayName} pinned={extras.pinned} onToggle={() => actions.togglePin(extras.pinKey)} />
      {extras.blur && <BlurToggle on={extras.blur.on} onToggle={actions.toggleBlur} />}
      {!tile.isOwn && tile.videoType === 'camera' && (
        <>
          {extras.moderator && <AdminSection tile={tile} onForceMute={actions.forceMute} />}
          <SignalMenu tile={tile} stats={extras.stats} received={extras.received} />
        </>
      )}
    </>
  );
}
