import type { PublicAccessField } from '@videomote/contract/public-access';

/** One picture per failing field (spec §8). Decorative: the heading beside it carries the meaning. */
export function ErrorIllustration({ field }: { field: PublicAccessField }) {
  return (
    <svg className="public-access-image" viewBox="0 0 120 120" width="120" height="120" aria-hidden="true" focusable="false" data-field={field}>
      <circle cx="60" cy="60" r="56" fill="#dcecff" />
      {field === 'roomId' && (
        <g fill="none" stroke="#00005a" strokeWidth="7" strokeLinecap="round">
          <path d="M52 44 l8-8 a14 14 0 0 1 20 20 l-8 8" />
          <path d="M68 76 l-8 8 a14 14 0 0 1 -20 -20 l8 -8" />
          <path d="M44 40 l-6 -6 M76 80 l6 6 M40 50 h-8 M80 70 h8" strokeWidth="5" />
        </g>
      )}
      {field === 'startTime' && (
        <g fill="none" stroke="#00005a" strokeWidth="6" strokeLinejoin="round">
          <rect x="30" y="36" width="60" height="52" rx="6" />
          <path d="M30 52 h60 M46 28 v14 M74 28 v14" strokeLinecap="round" />
          <path d="M50 66 l20 14 M70 66 l-20 14" strokeLinecap="round" />
        </g>
      )}
      {field === 'endTime' && (
        <g fill="none" stroke="#00005a" strokeWidth="6" strokeLinecap="round">
          <circle cx="60" cy="60" r="28" />
          <path d="M60 44 v16 l12 8" />
        </g>
      )}
    </svg>
  );
}
