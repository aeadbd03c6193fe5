import { EMOJIS } from '../texts.ts';

/** The 12 emojis of spec §2 as buttons whose accessible names are the Swedish words. */
export function EmojiPicker({ id, label, onPick }: { id: string; label: string; onPick(emoji: string): void }) {
  return (
    <ul className="chat-emoji-list" id={id} aria-label={label}>
      {EMOJIS.map((e) => (
        <li key={e.name}>
          <button type="button" className="chat-emoji-list__button" aria-label={e.name} title={e.name} onClick={() => onPick(e.char)}>
            <span aria-hidden="true">{e.char}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
