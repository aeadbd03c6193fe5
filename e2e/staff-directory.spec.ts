import { describe, expect, it } from 'vitest';
import { useBench } from './support/bench.ts';
import { expectAxeClean } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { tomorrow } from './support/booking.ts';
import { SLAPD_BASE_DN, SLAPD_SERVICE_DN, SLAPD_SERVICE_PASSWORD, startSlapd, type Slapd } from '../apps/server/src/testing/slapd.ts';
import { DIRECTORY_UNAVAILABLE } from '../apps/server/src/modules/directory/directory-errors.ts';

// The agency's directory as Debian's slapd, started for this file on a free loopback port and stopped by its PID.
let slapd: Slapd | undefined;
const bench = useBench(async () => {
  slapd = await startSlapd([
    { agencyId: 'erihan', givenName: 'Erik', surname: 'Handläggare', mail: 'erik.handlaggare@myndighet.se' },
    { agencyId: 'marlun', givenName: 'Mårten', surname: 'Lundgren', mail: 'marten.lundgren@myndighet.se' },
    { agencyId: 'marlin', givenName: 'Maria', surname: 'Lindqvist', mail: 'maria.lindqvist@myndighet.se' },
  ]);
  return {
    env: { LDAP_URL: slapd.url, LDAP_BIND_DN: SLAPD_SERVICE_DN, LDAP_BIND_PASSWORD: SLAPD_SERVICE_PASSWORD, LDAP_BASE_DN: SLAPD_BASE_DN },
  };
});

describe('staff directory over LDAP in the booking form', () => {
  it('Erik picks a colleague from the directory; when it goes down the search says so in place and the meeting is still booked', async () => {
    try {
      const { page } = await bench.newPage();
      await loginAs(page, 'erik', '/meetings/new');
      await page.getByRole('heading', { level: 1, name: 'Skapa videomöte' }).waitFor();
      await page.getByLabel('Rubrik').fill('Med kollega från katalogen');
      await page.getByLabel('Datum').fill(tomorrow());
      await page.getByLabel('Starttid').fill('10:00');
      await page.getByLabel('Sluttid').fill('11:00');

      // A colleague only the directory knows (the embedded list has no Mårten Lundgren).
      await page.getByRole('button', { name: 'Lägg till deltagare' }).click();
      await page.locator('#participant-1-role').selectOption({ label: 'Anställd på Arbetsförmedlingen' });
      await page.locator('#participant-1-afId').fill('Lundg');
      await page.getByText('Vald: Mårten Lundgren (marlun)').waitFor();
      await page.getByRole('button', { name: 'Spara deltagare' }).click();
      await page.getByRole('heading', { level: 3, name: 'Mårten Lundgren' }).waitFor();

      // The directory goes away: the next search shows the server's Swedish message at the field, not an error page.
      await slapd!.stop();
      await page.getByRole('button', { name: 'Lägg till deltagare' }).click();
      await page.locator('#participant-2-role').selectOption({ label: 'Anställd på Arbetsförmedlingen' });
      await page.locator('#participant-2-afId').fill('Lindq');
      const alert = page.getByRole('alert').filter({ hasText: DIRECTORY_UNAVAILABLE });
      await alert.waitFor();
      expect(await page.locator('#participant-2-afId').getAttribute('aria-describedby')).toContain('participant-2-afId-failure');
      expect(await page.getByText('Inga träffar').count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe('/meetings/new');
      await expectAxeClean(page, 'employee search with the directory down');

      // The rest of the form works: that card is dropped and the meeting with Mårten is booked.
      await page.locator('#participant-2').getByRole('button', { name: 'Avbryt' }).click();
      await page.locator('#participant-2-afId').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Spara videomöte' }).last().click();
      await page.getByRole('heading', { level: 1, name: 'Mötet är sparat' }).waitFor();
      const meetingId = new URL(page.url()).pathname.split('/')[2]!;
      const meeting = await page.evaluate(async (id) => (await (await fetch(`/api/meeting/${id}`)).json()).data, meetingId);
      expect(meeting.participants.map((p: { afId: string; displayName: string }) => [p.afId, p.displayName])).toEqual([
        ['erihan', 'Erik Handläggare'],
        ['marlun', 'Mårten Lundgren'],
      ]);
    } finally {
      await slapd?.dispose();
    }
  });
});
