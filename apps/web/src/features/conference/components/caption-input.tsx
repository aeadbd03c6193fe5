import { useEffect, useId, useMemo, useState } from 'react';
import { CAPTION_MAX_LENGTH } from '@videomote/contract/chat';
import { CAPTION_TEXTS } from '../model/texts.ts';
import { CaptionComposer, type CaptionSend } from '../model/captions.ts';

/**
 * The booked text interpreter's caption field: what is typed goes out as it is typed (CaptionComposer throttles it),
 * Enter finishes the line and empties the field for the next. Only offered to the text interpreter; the server
 * refuses captions from anyone else whatever a browser shows.
 */
export function CaptionInput({ onSend }: { onSend: CaptionSend }) {
  const id = useId();
  const [text, setText] = useState('');
  const composer = useMemo(() => new CaptionComposer(onSend), [onSend]);
  useEffect(() => () => composer.cancel(), [composer]);
  return (
    <div className="caption-input">
      <label htmlFor={id}>{CAPTION_TEXTS.inputLabel}</label>
      <input
        id={id}
        type="text"
        value={text}
        maxLength={CAPTION_MAX_LENGTH}
        autoComplete="off"
        spellCheck
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          setText(e.target.value);
          composer.input(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
          e.preventDefault();
          composer.commit();
          setText('');
        }}
      />
      <span id={`${id}-hint`} className="caption-input__hint">
        {CAPTION_TEXTS.inputHint}
      </span>
    </div>
  );
}
