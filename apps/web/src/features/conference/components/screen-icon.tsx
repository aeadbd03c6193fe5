/** Screen-share icon; decorative (the button carries the text). */
export const ScreenIcon = () => (
  <svg className="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M3 4h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-7v2h3v2H7v-2h3v-2H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm1 2v9h16V6Zm8 1 4 4h-3v3h-2v-3H8Z" />
  </svg>
);
