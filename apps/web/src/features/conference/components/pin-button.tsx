import { STAGE_TEXTS } from '../model/texts.ts';

/** Pins a tile on stage for this user only; a pressed toggle, so screen readers say whether it holds. */
export function PinButton({ name, pinned, onToggle }: { name: string; pinned: boolean; onToggle(): void }) {
  return (
    <button type="button" className="tile__tool" aria-pressed={pinned} onClick={onToggle} onDoubleClick={(e) => e.stopPropagation()}>
      {pinned ? STAGE_TEXTS.unpin : STAGE_TEXTS.pin}
      <span className="visually-hidden"> {name}</span>
    </button>
  );
}

/** Marks a tile kept on stage: the interpreter for everyone, or one's own pin. `interpreter`: the booked role that keeps the tile on stage (sign-language or text interpreter), null for a pin. */
export function KeptMark({ interpreter }: { interpreter: string | null | undefined }) {
  const label = interpreter === 'TextInterpreter' ? STAGE_TEXTS.textInterpreter : interpreter ? STAGE_TEXTS.interpreter : STAGE_TEXTS.pinned;
  return <span className="tile__kept">{label}</span>;
}
