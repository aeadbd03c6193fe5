import { useEffect, useRef } from 'react';
import type { ErrorItem } from '@videomote/contract/errors';

/** Form ids per error field, so each listed error links to the control it concerns. */
export type FieldIds = Record<string, string>;

/**
 * Server (and form) errors listed with an alert icon (booking spec §8, system message form). The list takes focus
 * when it appears so keyboard and screen-reader users land on it; each item links to its field.
 */
export function ErrorList({ errors, fieldIds, heading }: { errors: ErrorItem[]; fieldIds: FieldIds; heading?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (errors.length) ref.current?.focus();
  }, [errors]);
  if (!errors.length) return null;
  return (
    <div className="error-list" role="alert" tabIndex={-1} ref={ref}>
      {heading && <p className="error-list__heading">{heading}</p>}
      <ul>
        {errors.map((e, i) => {
          const target = e.fields.map((f) => fieldIds[f]).find(Boolean);
          return (
            <li key={i}>
              <span className="error-list__icon" aria-hidden="true">
                ⚠
              </span>{' '}
              {target ? (
                <a
                  href={`#${target}`}
                  onClick={(ev) => {
                    const el = document.getElementById(target);
                    if (!el) return;
                    ev.preventDefault();
                    el.focus();
                    if (document.activeElement !== el) {
                      console.warn(`Fältet ${target} kan inte ta fokus`);
                      el.scrollIntoView();
                    }
                  }}
                >
                  {e.message}
                </a>
              ) : (
                e.message
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
