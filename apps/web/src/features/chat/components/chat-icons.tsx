// Inline SVG, not emoji: icons must not depend on which emoji font a machine has. Names come from the caller.
const svg = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'currentColor', 'aria-hidden': true, focusable: false } as const;

export const TrashIcon = () => (
  <svg {...svg}>
    <path d="M9 3h6l1 2h4v2H4V5h4l1-2zM6 9h12l-1 12H7L6 9zm4 2v8h1.5v-8H10zm2.5 0v8H14v-8h-1.5z" />
  </svg>
);

export const ErrorIcon = () => (
  <svg {...svg}>
    <path d="M12 2a10 10 0 110 20 10 10 0 010-20zm-1 5v7h2V7h-2zm0 9v2h2v-2h-2z" />
  </svg>
);

export const InfoIcon = () => (
  <svg {...svg}>
    <path d="M12 2a10 10 0 110 20 10 10 0 010-20zm-1 8v7h2v-7h-2zm0-3v2h2V7h-2z" />
  </svg>
);
