import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CallBench, connectionIdOf, enter, keepsDecoding, status, withoutMicrophone } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { movingBarClip, testPin } from './support/fake-camera.ts';
import { dataDirWithMeeting } from './support/seed.ts';

// In real browsers: a sign-language interpreter and five others in one call, all with video. The interpreter's
// tile stays on stage for every viewer (grid, beside a focused camera, beside a focused screen share, minis hidden or
// not); personal pins (two at most) come back after a reload. Six is the fewest the rules need (a sharer, the
// interpreter, a viewer who pins, two pinned and a third refused); nine, as this spec once had, took 234-324 s of a CI
// run for the same checks. The pages share one Chromium whose fake camera is a small, slow clip made in code, and only
// the moderator and Jonna have a microphone (the others join as people without one): with every microphone on, the
// audio streams starved the machine.
vi.setConfig({ expect: { poll: { timeout: 45_000, interval: 300 } } });

const INTERPRETER = 'Tina Teckentolk';
const FAKE = '--use-fake-device-for-media-stream';
const MAJA = 'Maja Myndighet';
const bench = new CallBench();
let small: Browser;
let erik: Page; // the meeting's moderator; shares the screen
let jonna: Page; // non-moderator viewer
let karin: Page;
let fredrik: Page;
let maja: Page;
let tina: Page; // the interpreter
let everyone: Page[];
let meeting: { id: string };
const timings: Record<string, number> = {};
const loads: Record<string, string> = {};

async function measured<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const out = await work();
  timings[label] = Date.now() - t0;
  loads[label] = os.loadavg()[0]!.toFixed(2);
  return out;
}

beforeAll(async () => {
  // Six people with one seeded meeting: booking it through the form would test the booking again (keyboard-booking,
  // meetings); this spec is about the stage.
  const seeded = await dataDirWithMeeting(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { role: 'SignLanguageInterpreter', displayName: INTERPRETER, pin: testPin(0) },
      { persona: 'jonna', role: 'JobSeeker' },
      { persona: 'karin', role: 'ExternalParticipant' },
      { persona: 'fredrik', role: 'PrivateContractor' },
      { role: 'Authority', displayName: MAJA, pin: testPin(1) },
    ],
    'Samtal med teckentolk',
  );
  meeting = seeded.meeting;
  await bench.start({}, { dataDir: seeded.dataDir });
  // Cameras: a 160x90 clip at 5 fps; the fake screen (getDisplayMedia) at 5 fps too.
  small = await bench.launch({
    [FAKE]: `${FAKE}=fps=5`,
    file: `--use-file-for-fake-video-capture=${movingBarClip({ width: 160, height: 90, fps: 5 })}`,
  });
  const logins = await measured('6 logins', () =>
    Promise.all([
      bench.person('erik', small),
      bench.person('jonna', small),
      bench.person('karin', small),
      bench.person('fredrik', small),
      bench.personWithPin(testPin(0), INTERPRETER, small),
      bench.personWithPin(testPin(1), MAJA, small),
    ]),
  );
  [erik, jonna, karin, fredrik, tina, maja] = logins;
  everyone = logins;
  for (const p of everyone) if (p !== erik && p !== jonna) await withoutMicrophone(p);
}, 300_000);
afterAll(async () => {
  // The figures the brief asks for: how long each phase took here and the machine's load after it.
  console.log(`interpreter-stage timings (ms): ${JSON.stringify(timings)}; 1-min load after each: ${JSON.stringify(loads)}`);
  await bench.stop();
});

/**
 * Stream ids are read from the sender's page at every look: under this load a page may start its media connection
 * afresh (its socket watch gives up on pings a starved machine answers late), and its tiles then carry a new
 * connection id. The stage and the pins follow the person, so the checks do too.
 */
const cameraOf = async (sender: Page) => `camera-${await connectionIdOf(sender)}`;
const screenOf = async (sender: Page) => `screen-${await connectionIdOf(sender)}`;
const inMain = (p: Page, streamId: string) => p.locator(`.main-grid > .tile[data-stream-id="${streamId}"]`);
const inMinis = (p: Page, streamId: string) => p.locator(`.side-tiles .tile[data-stream-id="${streamId}"]`);
const mainIds = (p: Page) => p.locator('.main-grid > .tile').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-stream-id')));

/**
 * What a page knows of the call, for a failure message: under CI's load a share once never reached a viewer's stage,
 * and the bare "expected 0 to be 1" could not tell whether it ended, was never announced, or was not focused.
 */
async function callSeenBy(p: Page): Promise<string> {
  return p
    .evaluate(() => {
      type Hook = { session: { resumes: number }; model: { getState(): { connectionId: string; isSharingScreen: boolean; streamWithFocus: unknown; errors: { key: string }[]; connections: { connectionId: string; screenFeedId: unknown }[] } } };
      const hook = (window as unknown as { __videomoteTest?: Hook }).__videomoteTest;
      if (!hook) return 'no call';
      const s = hook.model.getState();
      const sharers = s.connections.filter((c) => c.screenFeedId).map((c) => c.connectionId);
      return JSON.stringify({ me: s.connectionId, sharing: s.isSharingScreen, sharers, focus: s.streamWithFocus, errors: s.errors.map((e) => e.key), resumes: hook.session.resumes });
    })
    .catch((err: Error) => `unreadable: ${err.message}`);
}

/**
 * A double-click on the video area, which toggles the minis. In one CI run on a machine at load 38 one never took
 * effect (the model's showMinis unchanged for 30 s, no side tile shown): if the model has not changed within 10 s
 * the double-click is sent once more, and said so in the log.
 */
async function toggleMinis(p: Page): Promise<void> {
  const shown = () => p.evaluate(() => (window as unknown as { __videomoteTest: { model: { getState(): { showMinis: boolean } } } }).__videomoteTest.model.getState().showMinis);
  const before = await shown();
  await p.locator('.video-area').dblclick();
  const toggled = await expect.poll(shown, { timeout: 10_000 }).toBe(!before).then(() => true, () => false);
  if (toggled) return;
  console.log(`the double-click on the video area did not toggle the minis within 10 s (${await callSeenBy(p)}); sent again`);
  await p.locator('.video-area').dblclick();
}

/** `assertion`, and on failure what the sharer's and the viewer's pages knew then. */
async function explained(assertion: Promise<unknown>, viewer: Page): Promise<void> {
  await assertion.catch(async (err: Error) => {
    throw new Error(`${err.message}; the sharer: ${await callSeenBy(erik)}; the viewer: ${await callSeenBy(viewer)}`);
  });
}

/**
 * The main area of `p` holds `first` in this order, then the cameras of `pinned` (kept in the order of the call, not
 * of pinning), and nothing else.
 */
async function expectStage(p: Page, first: Array<() => Promise<string>>, pinned: Page[]): Promise<void> {
  const stage = expect
    .poll(async () => {
      const want = [...(await Promise.all(first.map((f) => f()))), ...(await Promise.all(pinned.map(cameraOf))).sort()];
      const ids = await mainIds(p);
      const got = [...ids.slice(0, first.length), ...ids.slice(first.length).sort()];
      return JSON.stringify(got) === JSON.stringify(want) ? 'as wanted' : JSON.stringify({ got: ids, want });
    })
    .toBe('as wanted');
  await explained(stage, p);
}

/**
 * The interpreter on stage for `p`: her tile in the main area (never among the minis), visible with a size inside
 * the video area, with video, its element playing frames, and marked as kept there.
 */
async function expectOnStage(p: Page, interpreter: Page): Promise<void> {
  await expect
    .poll(async () => {
      const id = p === interpreter ? 'own-camera' : await cameraOf(interpreter);
      const tile = inMain(p, id);
      if ((await tile.count()) !== 1) return `${id} not in the main area`;
      if ((await inMinis(p, id).count()) !== 0) return `${id} among the minis`;
      const [box, area] = [await tile.boundingBox(), await p.locator('.video-area').boundingBox()];
      if (!box || !area || box.width <= 50 || box.height <= 30) return `${id} not shown with a size: ${JSON.stringify(box)}`;
      // Inside the video area, not scrolled or pushed out of it.
      if (box.x < area.x - 1 || box.y + box.height > area.y + area.height + 1) return `${id} outside the video area`;
      if ((await tile.getAttribute('data-has-video')) !== 'true') return `${id} without video`;
      const playing = await tile.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && !v.paused && v.readyState >= 2);
      if (!playing) return `${id} not playing`;
      return (await tile.locator('.tile__kept').textContent()) === 'Teckentolk' ? 'on stage' : `${id} not marked as kept`;
    }, { message: `the interpreter on stage for ${p.url()}` })
    .toBe('on stage');
}

async function expectAxeClean(p: Page, where: string): Promise<void> {
  const violations = await measured(`axe, ${where}`, () => seriousAxeViolations(p));
  expect(violations, `${where}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

describe('the sign-language interpreter stays on stage', () => {
  const tinaCamera = () => cameraOf(tina);
  let viewers: Page[];

  it('six in the call with video: the interpreter is in everyone\'s grid, first, decoding; the interpreter sees all five others', async () => {
    // Three at a time: six pages connecting at once on two shared cores starve each other's ICE and DTLS.
    await measured('6 pages enter', async () => {
      for (let i = 0; i < everyone.length; i += 3) await Promise.all(everyone.slice(i, i + 3).map((p) => enter(p, meeting.id)));
    });
    // Everyone in the call before any camera comes on; then one camera at a time, each one 5 subscriptions set up at
    // once (three at a time starved a CI run at load 30: a page's camera button did not come within 90 s).
    await Promise.all(everyone.map((p) => expect.poll(() => status(p).textContent(), { timeout: 90_000 }).toBe('6 personer deltar i mötet')));
    await measured('6 cameras on', async () => {
      for (const [i, p] of everyone.entries()) {
        await p.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 90_000 });
        await expect.poll(() => p.getByRole('button', { name: 'Stäng av din kamera' }).count()).toBe(1);
        await expect.poll(() => tina.locator('.tile[data-has-video="true"]').count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(i + 1);
      }
    });
    await Promise.all(everyone.map((p) => expect.poll(() => status(p).textContent(), { timeout: 90_000 }).toBe('6 personer deltar i mötet')));
    viewers = everyone.filter((p) => p !== tina);

    // The viewers' side and the interpreter's own screen are checked at the same time: both are mostly waiting
    // for frames, and each page polls only itself.
    await Promise.all([
      measured('interpreter decoding for 5 viewers', async () => {
        await Promise.all(
          viewers.map(async (p) => {
            await expect.poll(() => mainIds(p), { timeout: 90_000 }).toHaveLength(6);
            await expect.poll(async () => (await mainIds(p))[0] === (await tinaCamera())).toBe(true);
            await expectOnStage(p, tina);
            await keepsDecoding(p, tinaCamera, 90_000);
          }),
        );
      }),
      // The interpreter's own screen: the own tile plus five others, every one of them with video, in the grid.
      measured('5 others decoding for the interpreter', async () => {
        await expect.poll(() => tina.locator('.main-grid.grid-6 > .tile[data-has-video="true"]').count(), { timeout: 90_000 }).toBe(6);
        expect(await tina.locator('.side-tiles .tile').count()).toBe(0);
        const others = (await mainIds(tina)).filter((id) => id !== 'own-camera');
        expect(others).toHaveLength(5);
        await Promise.all(others.map((id) => keepsDecoding(tina, id!, 90_000)));
      }),
    ]);
    await expectAxeClean(jonna, 'grid of six');
  }, 420_000);

  it('a viewer focuses someone else\'s camera: the interpreter stays beside it, the rest become minis', async () => {
    await jonna.getByRole('button', { name: 'Maximera Karin Kompletterande', exact: true }).click();
    await expect.poll(async () => jonna.locator(`.main-grid.focus-with-stage > .tile[data-stream-id="${await cameraOf(karin)}"]`).count()).toBe(1);
    expect((await mainIds(jonna))[0]).toBe(await cameraOf(karin));
    await expectOnStage(jonna, tina);
    await toggleMinis(jonna); // minis shown
    await expect.poll(() => jonna.locator('.side-tiles .tile').count()).toBe(4);
    await expectOnStage(jonna, tina);
    await jonna.getByRole('button', { name: 'Minimera Karin Kompletterande', exact: true }).click();
    await expect.poll(() => mainIds(jonna)).toHaveLength(6);
  }, 120_000);

  it('a focused screen share: the interpreter is shown beside it, with video, for viewers', async () => {
    const screen = () => screenOf(erik);
    await measured('share focused for 4 viewers, decoding for 2', async () => {
      await erik.getByRole('button', { name: 'Dela skärm' }).click({ timeout: 30_000 });
      // Four viewers (a non-moderator, two others and the interpreter herself) keep the check short on two cores.
      await Promise.all(
        [jonna, karin, maja, tina].map(async (p) => {
          await explained(expect.poll(async () => p.locator(`.main-grid.focus-with-stage > .tile[data-stream-id="${await screen()}"]`).count(), { timeout: 90_000 }).toBe(1), p);
          expect((await mainIds(p))[0]).toBe(await screen());
          await expectOnStage(p, tina);
          if (p !== jonna && p !== karin) return;
          await Promise.all([keepsDecoding(p, screen, 90_000), keepsDecoding(p, tinaCamera, 90_000)]);
          // The other cameras are minis beside the stage, not in it.
          expect(await p.locator('.side-tiles .tile').count()).toBeGreaterThan(0);
        }),
      );
    });
    // Minis hidden: the sharer's camera joins the focus, and the interpreter stays.
    await karin.locator('.video-area').dblclick();
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBe(0);
    await expectOnStage(karin, tina);
    expect(await inMain(karin, await cameraOf(erik)).count()).toBe(1);
    // Jonna's page in this state (focused share, the interpreter beside it, minis) is checked by axe in the next
    // test, with two pins and the refusal notice added: one run there covers both.
    await expectAxeClean(tina, 'the interpreter\'s own screen with a focused share');
  }, 240_000);

  it('pins: two hold, a third is refused and explained, and both come back after a reload', async () => {
    const pin = (name: string) => jonna.getByRole('button', { name: `Fäst ${name}`, exact: true });
    const unpin = (name: string) => jonna.getByRole('button', { name: `Lossa ${name}`, exact: true });
    const notice = jonna.locator('.stage-notice[role="status"]');
    const t0 = Date.now();
    await pin('Karin Kompletterande').click();
    await pin('Fredrik Fristående').click();
    await expect.poll(() => unpin('Fredrik Fristående').getAttribute('aria-pressed')).toBe('true');
    expect(await unpin('Karin Kompletterande').getAttribute('aria-pressed')).toBe('true');
    // With the share focused (still, from the test before), the pinned cameras stand beside it with the interpreter.
    const erikScreen = () => screenOf(erik);
    await expectStage(jonna, [erikScreen, tinaCamera], [karin, fredrik]);

    await pin('Maja Myndighet').click();
    await expect.poll(() => notice.textContent()).toBe('Du kan fästa högst två rutor. Lossa en av dem först.');
    expect(await pin('Maja Myndighet').getAttribute('aria-pressed')).toBe('false');
    expect(await mainIds(jonna)).not.toContain(await cameraOf(maja));
    timings['two pins and a refused third'] = Date.now() - t0;
    await expectAxeClean(jonna, 'third pin refused');

    // Reload: a new media connection (new connection ids), the pins are found again by participant.
    await measured('reload and reconnect', () => enter(jonna, meeting.id));
    const t1 = Date.now();
    await expect.poll(() => status(jonna).textContent(), { timeout: 90_000 }).toBe('6 personer deltar i mötet');
    await expect.poll(() => unpin('Karin Kompletterande').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => unpin('Fredrik Fristående').count()).toBe(1);
    expect(await notice.textContent()).toBe('');
    // The running share is focused for the page that just came, and the kept tiles stand beside it again.
    await expectStage(jonna, [erikScreen, tinaCamera], [karin, fredrik]);
    await expectOnStage(jonna, tina);
    await keepsDecoding(jonna, () => cameraOf(karin), 90_000);
    timings['pins back after the reload'] = Date.now() - t1;
    // Without minis the sharer's camera joins the focus too; the kept tiles stay, after it.
    await jonna.locator('.video-area').dblclick();
    await expectStage(jonna, [erikScreen, () => cameraOf(erik), tinaCamera], [karin, fredrik]);
    // Unpinning frees a place: now Maja can be pinned (from the minis, shown again by a double-click).
    await unpin('Karin Kompletterande').click();
    await jonna.locator('.video-area').dblclick();
    await pin('Maja Myndighet').click();
    await expect.poll(() => unpin('Maja Myndighet').getAttribute('aria-pressed')).toBe('true');
    expect(await notice.textContent()).toBe('');
  }, 240_000);
});
