import { useState } from 'react';
import type { CaptionLine } from '@videomote/contract/chat';
import { CAPTION_TEXTS } from '../model/texts.ts';
import { lineToAnnounce, loadCaptionPrefs, saveCaptionPrefs, shownCaptions, type CaptionPrefs } from '../model/captions.ts';
import './captions.css';

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage);

/**
 * The text interpreter's captions over the bottom of the stage, with the viewer's own switches (captions on or off,
 * larger text), remembered in this browser. Finished lines are read out by a polite live region; nothing here ever
 * takes the focus. `children` is the text interpreter's own input, docked under the captions.
 */
export function CaptionsOverlay({ lines, children }: { lines: readonly CaptionLine[]; children?: React.ReactNode }) {
  const [prefs, setPrefs] = useState<CaptionPrefs>(() => loadCaptionPrefs(storage()));
  const change = (next: CaptionPrefs) => {
    setPrefs(next);
    saveCaptionPrefs(storage(), next);
  };
  const shown = prefs.on ? shownCaptions(lines) : [];
  const announced = prefs.on ? lineToAnnounce(lines) : null;
  return (
    <div className={`captions-dock${prefs.large ? ' captions-dock--large' : ''}`}>
      <div className="captions-controls" role="group" aria-label={CAPTION_TEXTS.settings}>
        <button type="button" aria-pressed={prefs.on} onClick={() => change({ ...prefs, on: !prefs.on })}>
          {CAPTION_TEXTS.toggle}
        </button>
        <button type="button" aria-pressed={prefs.large} disabled={!prefs.on} onClick={() => change({ ...prefs, large: !prefs.large })}>
          {CAPTION_TEXTS.larger}
        </button>
      </div>
      {shown.length > 0 && (
        // Shown for the eyes; the live region below speaks, so this one stays quiet while a line grows.
        <section className="captions" aria-label={CAPTION_TEXTS.region} data-testid="captions">
          {shown.map((l) => (
            <p key={l.id} className="captions__line" data-final={l.final}>
              <span className="captions__name">{l.fromName}:</span> {l.text}
            </p>
          ))}
        </section>
      )}
      <div className="visually-hidden" aria-live="polite" data-testid="captions-live">
        {announced ? CAPTION_TEXTS.announce(announced.fromName, announced.text) : ''}
      </div>
      {children}
    </div>
  );
}
