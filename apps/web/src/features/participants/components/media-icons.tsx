// Inline SVG, not emoji: icons must not depend on which emoji font a machine has. Names come from the caller.
const svg = { width: 18, height: 18, viewBox: '0 0 24 24', fill: 'currentColor', 'aria-hidden': true, focusable: false } as const;
const slash = <path d="M3.3 2.3l18.4 18.4-1.4 1.4L1.9 3.7z" />;

export const MicIcon = ({ off }: { off: boolean }) => (
  <svg {...svg}>
    <path d="M12 14a3 3 0 003-3V5a3 3 0 10-6 0v6a3 3 0 003 3zm5-3a5 5 0 01-10 0H5a7 7 0 006 6.9V21h2v-3.1A7 7 0 0019 11h-2z" />
    {off && slash}
  </svg>
);

export const CameraIcon = ({ off }: { off: boolean }) => (
  <svg {...svg}>
    <path d="M4 6h11a2 2 0 012 2v2.5l4-3v9l-4-3V16a2 2 0 01-2 2H4a2 2 0 01-2-2V8a2 2 0 012-2z" />
    {off && slash}
  </svg>
);

/** A raised hand (the emoji '✋' showed as an empty box on machines without an emoji font). */
export const HandIcon = () => (
  <svg {...svg}>
    <path d="M8 11V4.5a1.5 1.5 0 013 0V10h1V3a1.5 1.5 0 013 0v7h1V4.5a1.5 1.5 0 013 0V15a7 7 0 01-7 7h-.6a6 6 0 01-4.6-2.2l-4.2-5.1a1.5 1.5 0 012.2-2L7 15V11z" />
  </svg>
);
