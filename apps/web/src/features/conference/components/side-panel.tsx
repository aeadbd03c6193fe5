import type { ReactNode } from 'react';
import type { StreamTile } from '../model/call-model.ts';
import { VideoTile } from './video-tile.tsx';
import type { TileExtras } from './tile-extras.tsx';
import { PAGE_TEXTS } from '../model/texts.ts';

interface Props {
  minis: StreamTile[];
  oneColumn: boolean;
  focusedStreamId: string | null;
  extrasOf(tile: StreamTile): TileExtras;
  /**
   * CHAT / PARTICIPANTS PANELS GO HERE. The conference page passes what app/ registered in `slots.ts`
   * (the chat engineer's chat panel and participants panel); minis and chat are mutually exclusive with
   * participants (spec §4 Side panels), which the page decides.
   */
  panel: ReactNode;
}

/** The right-hand side panel (346 px, spec §9): the chat/participants panel and the mini video tiles. */
export function SidePanel({ minis, oneColumn, focusedStreamId, extrasOf, panel }: Props) {
  if (!panel && minis.length === 0) return null;
  return (
    <aside className={`side-panel${panel && minis.length > 0 ? ' side-panel--with-minis' : ''}`} aria-label={PAGE_TEXTS.sidePanel}>
      {panel}
      {minis.length > 0 && (
        <div className={`side-tiles${oneColumn ? ' side-tiles--one-column' : ''}`}>
          {minis.map((t) => (
            <VideoTile key={t.streamId} tile={t} mini focused={t.streamId === focusedStreamId} extras={extrasOf(t)} />
          ))}
        </div>
      )}
    </aside>
  );
}
