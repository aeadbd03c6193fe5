import type { ErrorEntry } from '../model/call-model.ts';
import { BANNER_TEXTS, TROUBLESHOOTING_URL } from '../model/texts.ts';

const isLocal = () => ['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname);

/** Dismissible banners: yellow for known errors, blue for unknown ones (spec §8); unknown ones only locally. */
export function ErrorPanel({ errors, onDismiss }: { errors: ErrorEntry[]; onDismiss(key: string): void }) {
  const shown = errors.filter((e) => e.visible && (e.known || isLocal()));
  if (shown.length === 0) return null;
  return (
    <div className="error-panel">
      {shown.map((e) => (
        <div key={e.key} role="alert" className={`error-banner ${e.known ? 'error-banner--known' : 'error-banner--unknown'}`} data-error-key={e.key}>
          <p>
            {e.message}
            {e.key === 'OT_USER_MEDIA_ACCESS_DENIED' && (
              <>
                {' '}
                <a href={TROUBLESHOOTING_URL} target="_blank" rel="noreferrer">
                  {BANNER_TEXTS.readMore}
                </a>
              </>
            )}
          </p>
          <button type="button" className="error-banner__close" aria-label={BANNER_TEXTS.close} onClick={() => onDismiss(e.key)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
