import type { PresenceEntry } from '@videomote/contract/chat';
import { ASSURANCE_LABELS, ASSURANCE_SHORT, assuranceOf } from '../model/assurance.ts';

/** How the server identified this person: a visible short badge, the full label for screen readers and on hover. */
export function AssuranceLabel({ entry }: { entry: Pick<PresenceEntry, 'assurance'> }) {
  const a = assuranceOf(entry);
  return (
    <span className={`assurance assurance--${a}`} data-assurance={a} title={ASSURANCE_LABELS[a]}>
      <span aria-hidden="true">{ASSURANCE_SHORT[a]}</span>
      <span className="visually-hidden">{ASSURANCE_LABELS[a]}</span>
    </span>
  );
}
