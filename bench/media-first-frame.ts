/**
 * Media benchmark: one webcast presenter and N viewers (default 1, 4, 8) through the embedded Janus, all inside a
 * private network namespace on 127.0.0.2 (as the browser tests). Prints, per N, the median time from a viewer's
 * join (the media session starting on the meeting screen) to its first decoded video frame, and Janus's CPU per
 * subscribed stream (from /proc/<pid>/stat over 10 s with all N viewers receiving). Target: join → frame < 1 s.
 *
 *   npm run bench:media            # N = 1 4 8
 *   npm run bench:media -- 2 16    # other N
 *
 * Needs root (unshare --net), Debian's janus and chromium. Builds the web app to a temporary folder first.
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import type { SessionUser } from '../apps/server/src/platform/session.ts';
import { insidePrivateNetns, runInPrivateNetns } from './private-netns.ts';
import { cpuPercentOver, median, rssMb } from './process-figures.ts';

const counts = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const N_LIST = counts.length ? counts : [1, 4, 8];
const CPU_WINDOW_MS = 10_000;

if (!insidePrivateNetns()) runInPrivateNetns(import.meta.url, N_LIST.map(String));

const { buildTestApp } = await import('../apps/server/src/testing/test-app.ts');
const { insertMeeting } = await import('../apps/server/src/testing/fixtures.ts');
const { SESSION_COOKIE } = await import('../apps/server/src/platform/session.ts');
const { launchBrowser, newUserPage } = await import('../e2e/support/browser.ts');
const { freePort } = await import('../e2e/support/server.ts');

// The port is chosen first: config.json tells the browser where /media is (PUBLIC_URL).
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = await buildTestApp({ env: { JANUS_ICE_ENFORCE: process.env.JANUS_ICE_ENFORCE ?? '', PUBLIC_URL: base, PORT: String(port) } });
await t.app.listen({ port, host: '127.0.0.1' });
const browser = await launchBrowser();
const now = Date.now();
const meeting = await insertMeeting(t.db, t.app.deps.pins, {
  type: 1,
  start: new Date(now - 60_000),
  end: new Date(now + 3 * 3600_000),
  participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
});

async function pageFor(user: Parameters<typeof t.as>[0]): Promise<Page> {
  const client = await t.as(user);
  const { context, page } = await newUserPage(browser, base);
  await context.addCookies([{ name: SESSION_COOKIE, value: client.cookies[SESSION_COOKIE]!, url: base }]);
  return page;
}

async function waitConnected(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => document.querySelector('.conference')?.getAttribute('data-connection-status') === 'connected', null, { timeout: 60_000 });
  } catch (err) {
    throw new Error(`the meeting screen did not connect: at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)}`, { cause: err });
  }
}

/** In the page: ms from the media session's start to the first decoded frame of a subscribed stream. */
async function firstFrameMs(page: Page): Promise<number> {
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  return page.evaluate(async () => {
    for (;;) {
      const h = (window as unknown as { __videomoteTest?: { startedAt: number; session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
      if (h) {
        for (const { role, pc } of h.session.peerConnections()) {
          if (role !== 'subscriber') continue;
          let frames = 0;
          (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
            if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
          });
          if (frames > 0) return performance.now() - h.startedAt;
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  });
}

// The presenter has passed the lobby (its consent): the media token needs it.
if ((await (await t.as('erik')).post(`/api/lobby/${meeting.id}/consent`, {})).statusCode !== 200) throw new Error('consent refused');
const publisher = await pageFor('erik');
await publisher.goto(`${base}/meetings/${meeting.id}/conference?vmtest=1`);
await waitConnected(publisher);
await publisher.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 });
const janusPid = t.app.media.pool.supervisor?.pid;
if (!janusPid) throw new Error('embedded Janus is not running');

const rows: { n: number; median: number; min: number; max: number; cpuTotal: number; cpuPerStream: number; rss: number }[] = [];
let visitorNo = 0;
for (const n of N_LIST) {
  const viewers: Page[] = [];
  const times: number[] = [];
  // Viewers join one after the other, so each join is timed on its own.
  for (let i = 0; i < n; i++) {
    visitorNo += 1;
    const visitor: SessionUser = {
      kind: 'anonymous', subject: `bench-${visitorNo}`, firstName: `Tittare ${visitorNo}`, lastName: '', afId: null, pinHash: null, pinEncrypted: null,
      roles: [], features: [], userLevel: 'None', isAdmin: false, meetingId: meeting.id,
    };
    const page = await pageFor(visitor);
    await page.goto(`${base}/meetings/${meeting.id}/conference?vmtest=1`);
    times.push(await firstFrameMs(page));
    viewers.push(page);
  }
  const [cpuTotal] = (await cpuPercentOver([janusPid], CPU_WINDOW_MS)) as [number];
  rows.push({ n, median: median(times), min: Math.min(...times), max: Math.max(...times), cpuTotal, cpuPerStream: cpuTotal / n, rss: rssMb(janusPid) });
  for (const p of viewers) await p.context().close();
}

console.log('\nMedia: one presenter (fake camera 1280x720, VP8 + Opus) → N viewers through the embedded Janus, on 127.0.0.2');
console.log('viewers | join → first frame median (min–max) | Janus CPU total | per subscribed stream | Janus RSS');
for (const r of rows) {
  console.log(
    `${String(r.n).padStart(7)} | ${r.median.toFixed(0).padStart(6)} ms (${r.min.toFixed(0)}–${r.max.toFixed(0)} ms)`.padEnd(45) +
      ` | ${r.cpuTotal.toFixed(1).padStart(5)} % | ${r.cpuPerStream.toFixed(2).padStart(5)} % of a core | ${r.rss.toFixed(0)} MB`,
  );
}
const worst = Math.max(...rows.map((r) => r.median));
console.log(`target: median join → first frame < 1000 ms: ${worst < 1000 ? 'met' : 'NOT met'} (worst median ${worst.toFixed(0)} ms)`);
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
// One machine-readable line for `npm run bench` (bench/run-all.ts).
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'media', figures: rows })}`);

await browser.close();
await t.close();
