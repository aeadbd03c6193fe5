import type { ReactNode } from 'react';

/**
 * A horizontally scrolling table area. It is a focusable, named region so that keyboard users
 * can scroll it with the arrow keys on a narrow screen (WCAG 2.1.1, axe scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
