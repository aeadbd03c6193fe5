import type { Page } from 'playwright-core';

/**
 * The lobby's consent, through its API from the page (as e2e/support/call.ts's giveConsent, which a bench cannot
 * import: it brings vitest's expect; and tsx cannot send it to a page either, as it names its inner functions).
 * Answers the HTTP status.
 */
export const giveConsent = (page: Page, meetingId: string): Promise<number> =>
  page.evaluate(async (id) => {
    await fetch('/api/getantiforgerydata');
    const xsrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.slice(11) ?? '');
    const res = await fetch(`/api/lobby/${id}/consent`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf }, body: JSON.stringify({ data: {} }) });
    return res.status;
  }, meetingId);
