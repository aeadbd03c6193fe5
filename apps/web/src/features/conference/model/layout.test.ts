import { describe, expect, it } from 'vitest';
import { CallModel } from './call-model.ts';
import { expectedTileHeight, gridFit, nobodySendsVideo, statusText, VIDEO_ASPECT } from './layout.ts';

describe('the status before and after trying', () => {
  it('says Ansluter... before the first attempt, and Anslutning misslyckades only after one failed', () => {
    const m = new CallModel();
    expect(m.getState().connectionStatus).toBe('idle');
    expect(statusText(m.getState().connectionStatus, 0)).toBe('Ansluter...');
    m.connecting();
    m.connectionFailed('Det gick inte att nå mötets videoserver.');
    expect(statusText(m.getState().connectionStatus, 0)).toBe('Anslutning misslyckades');
    m.disconnected();
    expect(statusText(m.getState().connectionStatus, 0)).toBe('Anslutning misslyckades');
  });
});

describe('nobodySendsVideo', () => {
  const cam = (hasVideo: boolean) => ({ hasVideo, videoType: 'camera' as const });
  it('is true once connected with no tile showing video, and not while connecting', () => {
    expect(nobodySendsVideo('connected', [])).toBe(true);
    expect(nobodySendsVideo('connected', [cam(false), cam(false)])).toBe(true);
    expect(nobodySendsVideo('connected', [cam(false), cam(true)])).toBe(false);
    expect(nobodySendsVideo('connected', [{ hasVideo: false, videoType: 'screen' }])).toBe(false);
    expect(nobodySendsVideo('connecting', [])).toBe(false);
    expect(nobodySendsVideo('idle', [])).toBe(false);
  });
});

describe('gridFit', () => {
  const aspect = (f: { tileWidth: number; tileHeight: number }) => f.tileWidth / f.tileHeight;

  it('puts two people one above the other on a phone in portrait, each as wide as the screen', () => {
    // 390×844 phone: the video area left between the status line and the control bar.
    const fit = gridFit(2, 374, 640);
    expect([fit.columns, fit.rows]).toEqual([1, 2]);
    expect(fit.tileWidth).toBe(374);
    expect(aspect(fit)).toBeCloseTo(VIDEO_ASPECT, 1);
  });

  it('puts two side by side in a wide window, and keeps tiles near the video\'s shape in every grid', () => {
    expect(gridFit(2, 1200, 600)).toMatchObject({ columns: 2, rows: 1 });
    for (const [count, w, h] of [[3, 374, 640], [4, 374, 640], [6, 1200, 600], [9, 1200, 700], [12, 1900, 900], [5, 800, 1200]] as const) {
      const fit = gridFit(count, w, h);
      expect(fit.columns * fit.rows).toBeGreaterThanOrEqual(count);
      expect(aspect(fit)).toBeCloseTo(VIDEO_ASPECT, 1);
      expect(fit.columns * fit.tileWidth + (fit.columns - 1) * 8).toBeLessThanOrEqual(w);
      expect(fit.rows * fit.tileHeight + (fit.rows - 1) * 8).toBeLessThanOrEqual(h);
    }
  });

  it('chooses the columns that give the largest tiles', () => {
    // Four in a landscape window: 2×2 beats a row of four and a column of four.
    expect(gridFit(4, 1200, 700)).toMatchObject({ columns: 2, rows: 2 });
    // One tile fills what it can of its aspect ratio.
    expect(gridFit(1, 1000, 300)).toMatchObject({ columns: 1, rows: 1, tileWidth: 533, tileHeight: 299 });
  });
});

describe('expectedTileHeight', () => {
  it("gives a joiner of an eight-person call a grid cell's height, low enough for the lowest layer on a laptop", () => {
    // 1280×720 window: a 3×3 grid, cells 234 px high (the lowest layer, 180 high, serves up to 240).
    expect(expectedTileHeight(8, { width: 1280, height: 720 })).toBe(234);
    expect(expectedTileHeight(2, { width: 1280, height: 720 })).toBe(357);
  });

  it('counts at most the grid of the main area, the rest being minis', () => {
    expect(expectedTileHeight(40, { width: 1900, height: 900 })).toBe(expectedTileHeight(12, { width: 1900, height: 900 }));
    expect(expectedTileHeight(0, { width: 1280, height: 720 })).toBe(expectedTileHeight(1, { width: 1280, height: 720 }));
  });
});
