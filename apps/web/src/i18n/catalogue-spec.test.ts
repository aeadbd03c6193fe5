/// <reference types="node" />
// The test reads the spec from disk; the web app itself never does.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flatten } from './translator.ts';
import { i18n } from './i18n.ts';
import { sv } from './catalogues/sv.ts';

/**
 * The Swedish catalogue against the spec: every text the spec quotes and the catalogue holds must be there
 * character for character. The spec lives beside the repository (`../shared/spec` from its root, as in CI); where
 * it is absent the test says so and is skipped.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const specDir = path.resolve(repoRoot, '../shared/spec');
const specPresent = fs.existsSync(specDir);

/** Every 'quoted' text of the spec. */
function specQuotes(): Set<string> {
  const quotes = new Set<string>();
  for (const file of fs.readdirSync(specDir).filter((f) => f.endsWith('.md'))) {
    for (const m of fs.readFileSync(path.join(specDir, file), 'utf8').matchAll(/'([^'\n]+)'/g)) quotes.add(m[1]!);
  }
  return quotes;
}

/** Catalogue keys whose Swedish text is quoted by the spec (booking spec §2, §5, §8; conference spec §2, §8). */
const SPEC_TEXT_KEYS = [
  'lobby.headingMeeting',
  'lobby.headingWebcast',
  'lobby.join',
  'lobby.consentRequired',
  'devices.noCamera',
  'devices.noMicrophone',
  'devices.errors.denied',
  'devices.errors.cameraInUse',
  'devices.errors.camera',
  'devices.errors.microphone',
  'devices.errors.checkDevices',
  'signup.consentRequired',
  'signup.invitedRequired',
  'signup.errorHeading',
  'signup.errorFallback',
  'publicAccess.nameLabel',
  'publicAccess.join',
  'publicAccess.nameRequired',
  'publicAccess.ended',
  'publicAccess.checkLink',
  'publicAccess.fieldTexts.roomId',
  'publicAccess.fieldTexts.startTime',
  'publicAccess.fieldTexts.endTime',
  'session.loggedOutTitle',
  'session.toStart',
  'session.logout',
  'shell.myMeetings',
  'shell.userSupport',
  'rating.errors.callQuality',
  'personalData.title',
] as const;

describe.skipIf(!specPresent)('the Swedish catalogue and the spec', () => {
  const quotes = specPresent ? specQuotes() : new Set<string>();
  const texts = flatten(sv);

  it('has every spec-quoted text character for character', () => {
    const changed = SPEC_TEXT_KEYS.filter((key) => !quotes.has(texts.get(key) ?? `missing key ${key}`));
    expect(changed).toEqual([]);
  });

  it('builds the spec’s page titles and rating labels from its parts', () => {
    const t = i18n.getFixedT('sv');
    expect(quotes.has(t('common.pageTitle', { page: t('common.callTitle') }))).toBe(true);
    const labels = [1, 2, 3, 4, 5].map((n) => `${n} ${t(`rating.label${n as 1 | 2 | 3 | 4 | 5}`)}`).join(', ');
    expect(fs.readFileSync(path.join(specDir, 'booking-lobby-admin.md'), 'utf8')).toContain(`Labels: ${labels}.`);
  });

  it('finds a changed text (the comparison is not empty)', () => {
    expect(quotes.size).toBeGreaterThan(100);
    expect(quotes.has(`${texts.get('lobby.join')}!`)).toBe(false);
  });
});

// Without the spec beside the repo the comparison cannot run: say so in the output rather than pass silently.
if (!specPresent) console.log(`SKIPPED: no spec at ${specDir}; the Swedish catalogue cannot be compared with the spec's texts`);
