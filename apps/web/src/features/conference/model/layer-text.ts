import type { ReceivedVideo } from './call-model.ts';
import { TILE_TEXTS } from './texts.ts';

/** The video layer received, in words: 'hög', 'mellan, halv bildfrekvens', 'av (för långsam anslutning)'. */
export function layerText(received: ReceivedVideo | undefined): string {
  if (!received) return '–';
  if (received.off === 'bandwidth') return TILE_TEXTS.layerOff;
  if (received.off === 'hidden') return '–';
  if (received.singleLayer) return TILE_TEXTS.singleLayer;
  if (received.substream === null) return '–';
  const name = TILE_TEXTS.layerName(received.substream);
  if (received.temporal === 1) return `${name}, ${TILE_TEXTS.halfFrameRate}`;
  if (received.temporal === 0) return `${name}, ${TILE_TEXTS.quarterFrameRate}`;
  return name;
}
