import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CHAT_MAX_LENGTH } from '@videomote/contract/chat';
import { CHAT_TEXTS } from '../texts.ts';
import { EmojiPicker } from './emoji-picker.tsx';

// Conference spec §9: the input takes focus 1000 ms after the panel opens (after the panel has slid in).
const REFOCUS_DELAY_MS = 1000;

/** The input, the emoji list and 'Skicka'. An empty message is not sent; sending resets the form and hides the emojis. */
export function ChatForm({ onSend }: { onSend(text: string): boolean }) {
  const [text, setText] = useState('');
  const [showEmojis, setShowEmojis] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const emojiListId = useId();

  useEffect(() => {
    const timer = setTimeout(() => inputRef.current?.focus(), REFOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    // Only a message that went out clears the input; while the socket reconnects, what was typed stays.
    if (!onSend(text)) return;
    setText('');
    setShowEmojis(false);
    inputRef.current?.focus();
  };

  const insert = (emoji: string) => {
    const input = inputRef.current;
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + emoji + text.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  return (
    <form className="chat-form" onSubmit={submit}>
      {showEmojis && <EmojiPicker id={emojiListId} label={CHAT_TEXTS.emojiList} onPick={insert} />}
      <div className="chat-form__row">
        <label htmlFor={inputId} className="visually-hidden">
          {CHAT_TEXTS.inputLabel}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          className="chat-form__input"
          type="text"
          autoComplete="off"
          maxLength={CHAT_MAX_LENGTH}
          placeholder={CHAT_TEXTS.inputLabel}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="button"
          className="chat-form__emoji"
          aria-label={CHAT_TEXTS.emojiButton}
          title={CHAT_TEXTS.emojiButton}
          aria-expanded={showEmojis}
          aria-controls={showEmojis ? emojiListId : undefined}
          onClick={() => setShowEmojis((s) => !s)}
        >
          <span aria-hidden="true">😀</span>
        </button>
        <button type="submit" className="chat-form__send">
          {CHAT_TEXTS.send}
        </button>
      </div>
    </form>
  );
}
