import { describe, expect, it, vi } from 'vitest';
import { useBench } from './support/bench.ts';
import { apiCall } from './support/call.ts';
import { BOOKER_AS_OFFICER } from './support/booking.ts';

// The browser half of the fuzz test (apps/server/src/security/fuzz.api.test.ts): markup stored through the API, in a
// system message and a meeting title, shows as the characters typed on the home page and runs nothing.
// (Chat messages are covered the same way in chat.spec.ts.)
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

const MESSAGE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> Underhåll';
const TITLE = '<svg onload="window.__pwned=3">Möte';

const bench = useBench();

describe('hostile stored data in the browser', () => {
  it('a system message and a meeting title full of markup show as text and run nothing', async () => {
    const anna = await bench.person('anna');
    const now = Date.now();
    const message = await apiCall(anna, 'POST', '/api/message', {
      type: 1,
      value: MESSAGE,
      startTime: new Date(now - 3600_000).toISOString(),
      endTime: new Date(now + 3600_000).toISOString(),
      showExternal: true,
      showInternal: true,
      showKauser: true,
    });
    expect(message.status, message.body).toBe(200);

    const erik = await bench.person('erik');
    const start = new Date(now + 3600_000);
    start.setMinutes(0, 0, 0);
    const booked = await apiCall(erik, 'POST', '/api/meeting', {
      title: TITLE,
      type: 0,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 1800_000).toISOString(),
      participants: [BOOKER_AS_OFFICER],
    });
    expect(booked.status, booked.body).toBe(200);
    const id = (JSON.parse(booked.body) as { data: { id: string } }).data.id;

    // The home page shows both: the banner and today's meeting in the list.
    await erik.goto('/meetings');
    await expect.poll(() => erik.getByText(MESSAGE, { exact: false }).count()).toBeGreaterThan(0);
    await expect.poll(() => erik.getByText(TITLE, { exact: false }).count()).toBeGreaterThan(0);
    // The confirmation page shows the title too.
    await erik.goto(`/meetings/${id}/saved`);
    await expect.poll(() => erik.getByText(TITLE, { exact: false }).count()).toBeGreaterThan(0);
    for (const page of [erik]) {
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('[onerror], [onload], img[src="x"]').count()).toBe(0);
    }
  });
});
