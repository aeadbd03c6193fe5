import { BANNER_TEXTS } from '../model/texts.ts';

/**
 * 'Någon i mötet har stängt av din mikrofon' with a close button (spec §2). The live region is always in the
 * page, so that screen readers announce the text when it is put into it.
 */
export function ForcedMuteBanner({ show, onDismiss }: { show: boolean; onDismiss(): void }) {
  return (
    <div className="forced-mute" role="status" aria-live="assertive" aria-atomic="true">
      {show && (
        <div className="error-banner error-banner--known" data-banner="forced-mute">
          <p>{BANNER_TEXTS.forcedMute}</p>
          <button type="button" className="error-banner__close" aria-label={BANNER_TEXTS.close} onClick={onDismiss}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
