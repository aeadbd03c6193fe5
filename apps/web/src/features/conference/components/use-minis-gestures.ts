import { useRef, type MouseEvent, type PointerEvent } from 'react';

/** Controls inside the video area (tile tools, pins, menus) keep their own taps and double-clicks. */
const CONTROL = 'button, a, input, select, textarea, [role="menu"], [role="dialog"]';
const onControl = (e: { target: EventTarget }) => e.target instanceof Element && e.target.closest(CONTROL) !== null;

/**
 * Spec §2: a double-click or a touch on the video area toggles the mini tiles (the call model refuses on phones and
 * without side tiles). A touch is a tap: a click whose pointer went down as a finger, so a mouse click does nothing.
 * A double tap is two touches, never also a double-click, or it would toggle three times.
 */
export function useMinisGestures(toggle: () => void) {
  const pointer = useRef('');
  return {
    onPointerDown: (e: PointerEvent) => {
      pointer.current = e.pointerType;
    },
    onClick: (e: MouseEvent) => {
      if (pointer.current === 'touch' && !onControl(e)) toggle();
    },
    onDoubleClick: (e: MouseEvent) => {
      if (pointer.current !== 'touch' && !onControl(e)) toggle();
    },
  };
}
