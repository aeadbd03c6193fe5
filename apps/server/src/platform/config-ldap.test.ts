import { describe, expect, it } from 'vitest';
import { ConfigError, ldapConfig, loadConfig } from './config.ts';

const FULL = {
  LDAP_URL: 'ldaps://dc1.myndighet.se:636',
  LDAP_BIND_DN: 'CN=svc-videomote,OU=Tjanstekonton,DC=myndighet,DC=se',
  LDAP_BIND_PASSWORD: 'hemligt',
  LDAP_BASE_DN: 'OU=Personal,DC=myndighet,DC=se',
};
const error = (env: Record<string, string>) => {
  try {
    ldapConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return null;
};

describe('LDAP configuration', () => {
  it('is off without LDAP_URL, so the embedded directory answers', () => {
    expect(loadConfig({}).ldap).toBeNull();
  });

  it('takes Active Directory defaults for the attribute names, the people filter and the limits', () => {
    expect(loadConfig(FULL).ldap).toEqual({
      url: 'ldaps://dc1.myndighet.se:636',
      startTls: false,
      bindDn: FULL.LDAP_BIND_DN,
      bindPassword: 'hemligt',
      baseDn: FULL.LDAP_BASE_DN,
      userFilter: '(&(objectCategory=person)(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
      attributes: { agencyId: 'sAMAccountName', givenName: 'givenName', surname: 'sn', mail: 'mail' },
      sizeLimit: 50,
      timeoutMs: 3000,
      cacheSeconds: 60,
      caFile: null,
    });
    const custom = ldapConfig({ ...FULL, LDAP_ATTR_AGENCY_ID: 'uid', LDAP_USER_FILTER: '(objectClass=inetOrgPerson)', LDAP_SIZE_LIMIT: '10', LDAP_CACHE_SECONDS: '0' })!;
    expect([custom.attributes.agencyId, custom.userFilter, custom.sizeLimit, custom.cacheSeconds]).toEqual(['uid', '(objectClass=inetOrgPerson)', 10, 0]);
  });

  it('stops the start when half-configured', () => {
    expect(error({ LDAP_BIND_DN: 'cn=x', LDAP_BASE_DN: 'dc=se' })).toBe('LDAP_BIND_DN, LDAP_BASE_DN are set but LDAP_URL is not');
    expect(error({ LDAP_URL: FULL.LDAP_URL, LDAP_BIND_DN: 'cn=x' })).toBe('LDAP_URL needs LDAP_BIND_PASSWORD, LDAP_BASE_DN');
    expect(error({ ...FULL, LDAP_URL: 'http://dc1:389' })).toMatch(/^LDAP_URL must be ldap:\/\/host:port or ldaps:\/\/host:port/);
    expect(error({ ...FULL, LDAP_URL: 'ldap://dc1/dc=se' })).toMatch(/^LDAP_URL must be/);
    expect(error({ ...FULL, LDAP_ATTR_MAIL: 'mail)(cn=*' })).toBe('LDAP_ATTR_MAIL must be an LDAP attribute name, got "mail)(cn=*"');
    expect(error({ ...FULL, LDAP_USER_FILTER: 'objectClass=user' })).toMatch(/^LDAP_USER_FILTER must be one LDAP filter/);
    expect(error({ ...FULL, LDAP_USER_FILTER: '(a=1))(b=2' })).toMatch(/^LDAP_USER_FILTER must be one LDAP filter/);
    expect(error({ ...FULL, LDAP_SIZE_LIMIT: '0' })).toMatch(/^LDAP_SIZE_LIMIT must be an integer between 1 and 1000/);
    expect(error({ ...FULL, LDAP_STARTTLS: 'yes' })).toBe('LDAP_STARTTLS must be true or false, got "yes"');
  });

  it('refuses plain ldap:// to another machine unless StartTLS upgrades it; loopback may be plain', () => {
    expect(error({ ...FULL, LDAP_URL: 'ldap://dc1.myndighet.se' })).toBe(
      'LDAP_URL sends the bind password in clear text to another machine: use ldaps://, or LDAP_STARTTLS=true',
    );
    expect(error({ ...FULL, LDAP_URL: 'ldap://10.0.0.5:389' })).toMatch(/clear text/);
    expect(ldapConfig({ ...FULL, LDAP_URL: 'ldap://dc1.myndighet.se:389', LDAP_STARTTLS: 'true' })).toMatchObject({ url: 'ldap://dc1.myndighet.se:389', startTls: true });
    expect(error({ ...FULL, LDAP_STARTTLS: 'true' })).toBe('LDAP_STARTTLS is for ldap:// URLs; ldaps:// is encrypted already');
    for (const url of ['ldap://127.0.0.1:3890', 'ldap://localhost:389', 'ldap://[::1]:389']) expect(ldapConfig({ ...FULL, LDAP_URL: url })?.url).toBe(url);
    expect(error({ ...FULL, LDAP_URL: 'ldap://127.evil.example' })).toMatch(/clear text/);
  });
});
