import { useId } from 'react';
import type { ReceivedVideo, StreamTile } from '../model/call-model.ts';
import { layerText } from '../model/layer-text.ts';
import { TILE_TEXTS } from '../model/texts.ts';
import { signalLevel, type KindStats, type StreamStats } from '../model/network-quality.ts';
import { usePopover } from './use-popover.ts';

const nf = (n: number, digits = 0) => n.toLocaleString('sv-SE', { maximumFractionDigits: digits });
const kbps = (bits: number) => `${nf(bits / 1000)} kbit/s`;

/** Own camera tile: 'Suddig bakgrund' / 'Normal bakgrund', only where the browser can (spec §2 Tiles). */
export function BlurToggle({ on, onToggle }: { on: boolean; onToggle(): void }) {
  return (
    <button type="button" className="tile__tool" aria-pressed={on} onClick={onToggle} onDoubleClick={(e) => e.stopPropagation()}>
      {on ? TILE_TEXTS.blurOff : TILE_TEXTS.blurOn}
    </button>
  );
}

function Row({ label, s }: { label: string; s: KindStats | null }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{s?.frameRate === null || s?.frameRate === undefined ? '–' : `${nf(s.frameRate)} bilder/s`}</td>
      <td>{s ? kbps(s.bitrate) : '–'}</td>
      <td>{s ? nf(s.packetsLost) : '–'}</td>
    </tr>
  );
}

/**
 * The signal bar of a remote camera stream and its menu: the incoming figures for video and audio (spec §2), and
 * the video layer this page receives (adaptive quality).
 */
export function SignalMenu({ tile, stats, received }: { tile: StreamTile; stats: StreamStats | undefined; received?: ReceivedVideo }) {
  const { open, setOpen, root, toggle } = usePopover();
  const id = useId();
  const loss = Math.max(stats?.video?.lossRatio ?? 0, stats?.audio?.lossRatio ?? 0);
  const level = signalLevel(loss);
  return (
    <div className="tile__signal" ref={root} onDoubleClick={(e) => e.stopPropagation()}>
      <button
        ref={toggle}
        type="button"
        className={`signal signal--${level}`}
        data-level={level}
        aria-expanded={open}
        aria-controls={id}
        aria-label={`${TILE_TEXTS.signal(tile.displayName)}: ${TILE_TEXTS.level(level)}`}
        onClick={() => setOpen(!open)}
      >
        <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <rect x="3" y="15" width="4" height="6" className="signal__bar signal__bar--1" />
          <rect x="10" y="10" width="4" height="11" className="signal__bar signal__bar--2" />
          <rect x="17" y="4" width="4" height="17" className="signal__bar signal__bar--3" />
        </svg>
      </button>
      {open && (
        <div id={id} className="signal__menu" role="dialog" aria-label={TILE_TEXTS.signal(tile.displayName)}>
          <table>
            <caption>{TILE_TEXTS.signalCaption}</caption>
            <thead>
              <tr>
                <td />
                <th scope="col">{TILE_TEXTS.frameRate}</th>
                <th scope="col">{TILE_TEXTS.bitrate}</th>
                <th scope="col">{TILE_TEXTS.packetsLost}</th>
              </tr>
            </thead>
            <tbody>
              <Row label={TILE_TEXTS.video} s={stats?.video ?? null} />
              <Row label={TILE_TEXTS.audio} s={stats?.audio ?? null} />
            </tbody>
          </table>
          <p className="signal__layer" data-layer={received?.off ?? received?.substream ?? ''}>
            {TILE_TEXTS.layer}: {layerText(received)}
          </p>
        </div>
      )}
    </div>
  );
}

/** The admin-only section of a remote tile (spec §2, §6): force-mute a stream that has audio. */
export function AdminSection({ tile, onForceMute }: { tile: StreamTile; onForceMute(connectionId: string): void }) {
  if (!tile.hasAudio) return null;
  return (
    <div className="tile__admin" onDoubleClick={(e) => e.stopPropagation()}>
      <button type="button" className="tile__tool" onClick={() => onForceMute(tile.connectionId)}>
        {TILE_TEXTS.forceMute(tile.displayName)}
      </button>
    </div>
  );
}
