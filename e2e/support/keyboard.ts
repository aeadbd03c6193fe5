import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** What has focus, read from the page: enough to tell controls apart and to see whether focus is visible. */
export interface Focused {
  tag: string;
  id: string;
  /** aria-label, aria-labelledby, a <label>, or the text, collapsed. */
  name: string;
  role: string | null;
  type: string | null;
  /** A focus indicator is drawn: an outline (of some width) or a box-shadow. */
  ring: boolean;
  /** Where it sits, for failure messages. */
  path: string;
  /** aria-pressed of a toggle button. */
  pressed: string | null;
  /** Inside an open <dialog>. */
  inDialog: boolean;
}

export async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', id: '', name: '', role: null, type: null, ring: false, path: 'body', pressed: null, inDialog: false };
    const text = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
    const labelledBy = el
      .getAttribute('aria-labelledby')
      ?.split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    const labels = (el as HTMLInputElement).labels;
    const name = text(el.getAttribute('aria-label')) || text(labelledBy) || text(labels?.[0]?.textContent) || text(el.textContent);
    const cs = getComputedStyle(el);
    const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || (cs.boxShadow !== 'none' && cs.boxShadow !== '');
    const path: string[] = [];
    for (let n: HTMLElement | null = el; n && path.length < 4; n = n.parentElement) path.unshift(n.tagName.toLowerCase() + (n.id ? `#${n.id}` : n.className && typeof n.className === 'string' ? `.${n.className.split(' ')[0]}` : ''));
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name,
      role: el.getAttribute('role'),
      type: el.getAttribute('type'),
      ring,
      path: path.join(' > '),
      pressed: el.getAttribute('aria-pressed'),
      inDialog: !!el.closest('dialog[open]'),
    };
  });
}

/** Focus is on a control and drawn (WCAG 2.4.7). */
export async function expectVisibleFocus(page: Page, where: string): Promise<Focused> {
  const f = await focused(page);
  expect(f.tag, `${where}: focus is on the page, not a control`).not.toBe('body');
  expect(f.ring, `${where}: no visible focus on ${f.path} '${f.name}'`).toBe(true);
  return f;
}

export type FocusMatch = string | RegExp | ((f: Focused) => boolean);

const matches = (f: Focused, m: FocusMatch) => (typeof m === 'function' ? m(f) : typeof m === 'string' ? f.name === m || f.id === m : m.test(f.name));

/**
 * Presses Tab (or Shift+Tab) until the focused control matches, checking at every stop on the way that focus is
 * visible. Fails with the controls it passed when the match does not come within `max` stops.
 */
export async function tabTo(page: Page, match: FocusMatch, options: { back?: boolean; max?: number } = {}): Promise<Focused> {
  const trail: string[] = [];
  for (let i = 0; i < (options.max ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    trail.push(`${f.path} '${f.name}'`);
    if (f.tag === 'body') continue; // passing from the page to the browser's chrome and back
    expect(f.ring, `no visible focus on ${f.path} '${f.name}' (after ${trail.join(' → ')})`).toBe(true);
    if (matches(f, match)) return f;
  }
  throw new Error(`never reached ${String(match)}; passed ${trail.join(' → ')}`);
}

/** Presses a key on the focused select until the chosen option's text is `label` (a closed select moves by arrows). */
export async function arrowToOption(page: Page, label: string, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) {
    const chosen = await page.evaluate(() => {
      const s = document.activeElement as HTMLSelectElement;
      return s.tagName === 'SELECT' ? (s.selectedOptions[0]?.textContent ?? '') : null;
    });
    expect(chosen, 'focus is not on a select').not.toBeNull();
    if (chosen === label) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`option '${label}' not reached by ArrowDown`);
}
