import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { apiCall, enter, withoutMicrophone } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { seededDataDir } from './support/seed.ts';
import { rawChatRefusals } from './support/raw-chat.ts';

// Live captions from a booked text interpreter (Skrivtolk) in real browsers: Karin types, Erik and Jonna see her
// line as it grows; a participant who is not the text interpreter is refused by the server; Jonna's caption
// choices survive a reload; and once the call is over and everybody has left, the server holds no caption line.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

const INTERPRETER = 'Karin Skrivtolk';
/** The meeting ends a minute after seeding: the call below outlasts it, so leaving ends the call for the chat too. */
const END_AFTER_MS = 60_000;
const ids = { meeting: '', end: 0 };

const bench = useBench(async () => {
  const now = Date.now();
  ids.end = now + END_AFTER_MS;
  const { dataDir, seeded } = await seededDataDir((insert) =>
    insert({
      title: 'Samtal med skrivtolk',
      type: 0,
      start: new Date(now - 10 * 60_000),
      end: new Date(ids.end),
      participants: [
        { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
        { persona: 'jonna', role: 'JobSeeker' },
        { persona: 'karin', role: 'TextInterpreter', displayName: INTERPRETER },
      ],
    }),
  );
  ids.meeting = seeded.id;
  return { dataDir };
});

const captionField = (p: Page) => p.getByRole('textbox', { name: 'Skriv textning' });
const toggle = (p: Page) => p.getByRole('button', { name: 'Textning', exact: true });
const larger = (p: Page) => p.getByRole('button', { name: 'Större text', exact: true });
const lines = (p: Page) => p.locator('[data-testid="captions"] .captions__line').allTextContents();
const fontSize = (p: Page) => p.locator('[data-testid="captions"]').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

/** Records, in the page, when each caption text first appeared (Date.now(): the pages share the machine's clock). */
const watchCaptions = (p: Page) =>
  p.evaluate(() => {
    const seen: [number, string][] = [];
    (window as unknown as { __captionsSeen: typeof seen }).__captionsSeen = seen;
    const read = () => Array.from(document.querySelectorAll('[data-testid="captions"] .captions__line'), (l) => l.textContent ?? '').join('\n');
    new MutationObserver(() => {
      const text = read();
      if (text !== seen.at(-1)?.[1]) seen.push([Date.now(), text]);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
const seenIn = (p: Page) => p.evaluate(() => (window as unknown as { __captionsSeen: [number, string][] }).__captionsSeen);

const percentile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

describe('captions from the booked text interpreter', () => {
  it('reach the others within 0.5 s as typed, only from the text interpreter, with choices kept and nothing left after the call', async () => {
    const [erik, jonna, karin, anna] = await Promise.all([bench.person('erik'), bench.person('jonna'), bench.person('karin'), bench.person('anna')]);
    // No microphones: captions are what is timed, and three Opus streams sent and received by every page of one
    // machine took the two cores (26 November, alone: median 0.7-2.2 s, stalls to 5 s with them, the code of the
    // day before just the same; 0.11-0.15 s without). Each person's own device carries that in a real call.
    for (const p of [erik, jonna, karin]) await withoutMicrophone(p);
    await Promise.all([erik, jonna, karin].map((p) => enter(p, ids.meeting)));

    // Only the text interpreter gets the field; the others get the caption switches once she is there.
    await expect.poll(() => captionField(karin).count()).toBe(1);
    await expect.poll(() => toggle(jonna).count()).toBe(1);
    expect(await captionField(jonna).count()).toBe(0);
    expect(await captionField(erik).count()).toBe(0);

    // Jonna's focus is on the captions switch: captions arriving must not move it.
    await toggle(jonna).focus();
    await Promise.all([watchCaptions(erik), watchCaptions(jonna)]);
    await karin.evaluate(() => {
      const typed: [number, string][] = [];
      (window as unknown as { __typed: typeof typed }).__typed = typed;
      document.addEventListener('input', (e) => typed.push([Date.now(), (e.target as HTMLInputElement).value]), true);
    });
    const sentence = 'Hej och välkommen till mötet, vi börjar med planeringen';
    // About 12 keys a second, a fast typist's pace.
    await captionField(karin).pressSequentially(sentence, { delay: 80 });
    await expect.poll(() => lines(jonna)).toEqual([`${INTERPRETER}: ${sentence}`]);
    await expect.poll(() => lines(erik)).toEqual([`${INTERPRETER}: ${sentence}`]);

    // Every keystroke: how long until each viewer shows a line holding the text typed so far.
    const typed = await karin.evaluate(() => (window as unknown as { __typed: [number, string][] }).__typed);
    expect(typed.length).toBe(sentence.length);
    const latencies: Record<string, number[]> = {};
    for (const [name, page] of [['Erik', erik], ['Jonna', jonna]] as const) {
      const seen = await seenIn(page);
      latencies[name] = typed.map(([at, value]) => {
        const shown = seen.find(([t, text]) => t >= at && text.startsWith(`${INTERPRETER}: ${value}`));
        expect(shown, `"${value}" never reached ${name}`).toBeDefined();
        return shown![0] - at;
      });
    }
    const all = Object.values(latencies).flat();
    const summary = Object.entries(latencies).map(([n, xs]) => `${n}: median ${percentile(xs, 0.5)} ms, p95 ${percentile(xs, 0.95)} ms, max ${Math.max(...xs)} ms`);
    console.log(`caption latency, keystroke to the other screen, ${typed.length} keystrokes: ${summary.join('; ')}`);
    // The typical keystroke within 0.5 s. The tail is the machine's: alone it stays under 0.5 s too (p95 216 ms,
    // max 303 ms), but with other browser tests on the two cores single keystrokes waited for a render up to 1 s
    // (load average 30) and 8 s (load 64). CI runs alone: a stall beyond 2 s there would be ours.
    expect(percentile(all, 0.5)).toBeLessThanOrEqual(500);
    expect(Math.max(...all)).toBeLessThanOrEqual(2000);
    expect(await jonna.evaluate(() => document.activeElement?.textContent)).toBe('Textning');

    // Her camera (switched on after the timing, which it would only load) stays on stage, marked as the text interpreter's.
    await karin.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 60_000 });
    await expect.poll(() => erik.locator('.main-grid .tile .tile__kept').allTextContents()).toEqual(['Skrivtolk']);

    // Enter finishes the line: read out politely to screen readers, and the next line follows it.
    await captionField(karin).press('Enter');
    expect(await captionField(karin).inputValue()).toBe('');
    await expect.poll(() => jonna.getByTestId('captions-live').textContent()).toBe(`${INTERPRETER}: ${sentence}`);
    expect(await jonna.getByTestId('captions-live').getAttribute('aria-live')).toBe('polite');
    await captionField(karin).pressSequentially('Första punkten', { delay: 30 });
    await expect.poll(() => lines(jonna)).toEqual([`${INTERPRETER}: ${sentence}`, `${INTERPRETER}: Första punkten`]);

    // Jonna, not the text interpreter, sends a caption frame from her own socket: the server refuses and says why.
    const refused = await rawChatRefusals(jonna, ids.meeting, [
      { type: 'CAPTION', from: null, displayName: INTERPRETER, data: { id: 'fake-1', data: 'Förfalskad textning', final: true } },
    ]);
    expect(refused).toEqual(['Bara mötets bokade skrivtolk kan skicka textning.']);
    expect((await lines(erik)).join()).not.toContain('Förfalskad');

    expect(await seriousAxeViolations(karin)).toEqual([]);
    expect(await seriousAxeViolations(jonna)).toEqual([]);

    // Jonna's choices: off hides the captions, on shows them, larger text is larger; kept after a reload.
    await toggle(jonna).click();
    expect(await toggle(jonna).getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => lines(jonna)).toEqual([]);
    await toggle(jonna).click();
    await expect.poll(() => lines(jonna)).toHaveLength(2);
    const normal = await fontSize(jonna);
    await larger(jonna).click();
    expect(await larger(jonna).getAttribute('aria-pressed')).toBe('true');
    expect(await fontSize(jonna)).toBeGreaterThanOrEqual(normal * 1.5);
    await toggle(jonna).click();
    await jonna.reload();
    await expect.poll(() => jonna.locator('.conference').getAttribute('data-connection-status')).toBe('connected');
    await expect.poll(() => toggle(jonna).getAttribute('aria-pressed')).toBe('false');
    expect(await larger(jonna).getAttribute('aria-pressed')).toBe('true');
    expect(await lines(jonna)).toEqual([]);
    await toggle(jonna).click();
    // The late joiner's captions come from the server's memory of the call, at the larger size.
    await expect.poll(() => lines(jonna)).toEqual([`${INTERPRETER}: ${sentence}`, `${INTERPRETER}: Första punkten`]);
    expect(await fontSize(jonna)).toBeGreaterThanOrEqual(normal * 1.5);

    // After the call: Felsökning counts the lines the call holds (never their text); once the meeting is over and
    // the last one has left, none are left.
    const captionsHeld = async () => JSON.parse((await apiCall(anna, 'GET', `/api/admin/troubleshoot?q=${ids.meeting}`)).body).data.chat.state as string | undefined;
    expect(await captionsHeld()).toBe('2 textningsrader från skrivtolken sparade under samtalet');
    const wait = ids.end - Date.now() + 1000;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (const p of [erik, jonna, karin]) await p.close();
    await expect.poll(captionsHeld).toBeUndefined();
  }, 300_000);
});
