import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ldapConfig } from '../../platform/config.ts';
import { SLAPD_BASE_DN, SLAPD_SERVICE_DN, SLAPD_SERVICE_PASSWORD, startSlapd, type Slapd } from '../../testing/slapd.ts';
import { AppError } from '../../platform/errors.ts';
import { LdapEmployeeDirectory } from './ldap-employee-directory.ts';
import { DIRECTORY_UNAVAILABLE } from './directory-errors.ts';

// The encrypted paths a production directory takes (ldaps://, StartTLS), against slapd with a test CA: the server
// refuses a simple bind on an unencrypted connection, as a domain controller that requires signing does.
describe('LDAP directory over TLS (slapd)', () => {
  let slapd: Slapd;
  const logged: string[] = [];
  const log = { warn: (obj: object, msg: string) => void logged.push(`${msg} ${JSON.stringify(obj)}`) };

  beforeAll(async () => {
    slapd = await startSlapd([{ agencyId: 'marlun', givenName: 'Mårten', surname: 'Lundgren', mail: 'marten.lundgren@myndighet.se' }], { tls: true });
  });
  afterAll(async () => slapd?.dispose());

  const directory = (env: Record<string, string>) =>
    new LdapEmployeeDirectory(
      ldapConfig({ LDAP_BIND_DN: SLAPD_SERVICE_DN, LDAP_BIND_PASSWORD: SLAPD_SERVICE_PASSWORD, LDAP_BASE_DN: SLAPD_BASE_DN, LDAP_CACHE_SECONDS: '0', ...env })!,
      log,
    );
  const MARTEN = { signatur: 'marlun', namn: 'Mårten Lundgren', elektroniskAdress: 'marten.lundgren@myndighet.se' };
  const unavailable = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(503);
    expect((err as AppError).message).toBe(DIRECTORY_UNAVAILABLE);
  };

  it('searches over ldaps:// with the agency CA, and over ldap:// upgraded by StartTLS', async () => {
    expect(await directory({ LDAP_URL: slapd.ldapsUrl!, LDAP_CA_FILE: slapd.caFile! }).search('Lundg')).toEqual([MARTEN]);
    expect(await directory({ LDAP_URL: slapd.url, LDAP_STARTTLS: 'true', LDAP_CA_FILE: slapd.caFile! }).find('MARLUN')).toEqual(MARTEN);
  });

  it('refuses a certificate it cannot trust, and the server refuses a bind in clear text', async () => {
    logged.length = 0;
    await unavailable(directory({ LDAP_URL: slapd.ldapsUrl! }).search('Lundg'));
    expect(logged[0]).toMatch(/staff directory unavailable .*certificate/i);
    // Plain ldap:// is allowed to loopback by the configuration, but this server wants TLS first.
    await unavailable(directory({ LDAP_URL: slapd.url }).search('Lundg'));
    expect(logged[1]).toMatch(/staff directory unavailable .*(confidentiality|StrongAuth)/i);
    expect(logged.join('\n')).not.toContain(SLAPD_SERVICE_PASSWORD);
  });
});
