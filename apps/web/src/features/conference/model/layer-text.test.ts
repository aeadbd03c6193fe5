import { describe, expect, it } from 'vitest';
import { layerText } from './layer-text.ts';

describe('the layer received, in the network-quality menu', () => {
  it('names the layer and a reduced frame rate, a video off for bandwidth, and a single-layer share', () => {
    expect(layerText({ off: null, singleLayer: false, substream: 2, temporal: 2 })).toBe('hög');
    expect(layerText({ off: null, singleLayer: false, substream: 1, temporal: 2 })).toBe('mellan');
    expect(layerText({ off: null, singleLayer: false, substream: 0, temporal: 1 })).toBe('låg, halv bildfrekvens');
    expect(layerText({ off: null, singleLayer: false, substream: 0, temporal: 0 })).toBe('låg, en fjärdedels bildfrekvens');
    expect(layerText({ off: 'bandwidth', singleLayer: false, substream: null, temporal: null })).toBe('av (för långsam anslutning)');
    expect(layerText({ off: null, singleLayer: true, substream: null, temporal: null })).toBe('full');
    expect(layerText({ off: null, singleLayer: false, substream: null, temporal: null })).toBe('–'); // Janus has not said yet
    expect(layerText({ off: 'hidden', singleLayer: false, substream: null, temporal: null })).toBe('–');
    expect(layerText(undefined)).toBe('–');
  });
});
