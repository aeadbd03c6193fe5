import fs from 'node:fs';
import net from 'node:net';
import { Client, type Entry } from 'ldapts';
import type { Employee } from '@videomote/contract/meetings';
import type { LdapConfig } from '../../platform/config.ts';
import type { EmployeeDirectory } from './employee-directory.ts';
import { AnswerCache } from './answer-cache.ts';
import { directoryUnavailable } from './directory-errors.ts';
import { rankEmployees } from './employee-ranking.ts';
import { employeeByIdFilter, employeeSearchFilter } from './ldap-filter.ts';

export interface DirectoryLog {
  warn(obj: object, msg: string): void;
}

// Enough distinct queries for a busy morning of bookings on one node; each answer is a few hundred bytes.
const CACHE_ENTRIES = 1000;

/**
 * The agency's staff directory over LDAP (Active Directory). Each question that the cache cannot answer opens its own
 * connection, upgrades it with StartTLS when configured, binds, searches and unbinds. A kept-open connection would
 * save a round trip or two, but the client library reconnects a dropped connection on its own, without StartTLS and
 * without the bind; with the 300 ms debounce in the browser and the cache here, a fresh connection per question is
 * cheap, and never sends anything in the clear or unauthenticated.
 */
export class LdapEmployeeDirectory implements EmployeeDirectory {
  private readonly cache: AnswerCache<Employee[]>;
  private readonly ca: Buffer | undefined;

  constructor(
    private readonly config: LdapConfig,
    private readonly log: DirectoryLog,
  ) {
    this.cache = new AnswerCache(config.cacheSeconds * 1000, CACHE_ENTRIES);
    // Read at start-up: a missing CA file is a configuration error, not a failed search an hour later.
    this.ca = config.caFile ? fs.readFileSync(config.caFile) : undefined;
  }

  async search(query: string, limit = 20): Promise<Employee[]> {
    const q = query.trim().replace(/\s+/g, ' ');
    if (!q) return [];
    const key = `search:${q.toLocaleLowerCase('sv-SE')}`;
    const found = await this.cache.get(key, async () => {
      const people = await this.query(employeeSearchFilter(q, this.config.attributes, this.config.userFilter));
      // The colleague picked from these results is looked up by id when the meeting is saved: answered from here.
      for (const e of people) this.cache.set(idKey(e.signatur), [e]);
      return people;
    });
    return rankEmployees(found, q, limit);
  }

  async find(signatur: string): Promise<Employee | null> {
    const id = signatur.trim();
    if (!id) return null;
    const key = idKey(id);
    const found = await this.cache.get(key, () => this.query(employeeByIdFilter(id, this.config.attributes, this.config.userFilter)));
    return found[0] ?? null;
  }

  private async query(filter: string): Promise<Employee[]> {
    const { url, startTls, bindDn, bindPassword, baseDn, attributes: a, sizeLimit, timeoutMs } = this.config;
    const tlsOptions = this.ca ? { ca: this.ca } : {};
    // TLS options on the client make ldapts speak TLS from the first byte, whatever the URL says: only for ldaps://.
    const ldaps = url.startsWith('ldaps:');
    const client = new Client({ url, timeout: timeoutMs, connectTimeout: timeoutMs, tlsOptions: ldaps ? tlsOptions : undefined, strictDN: false });
    try {
      if (startTls) {
        // The upgraded socket checks the certificate against `host`; SNI (servername) takes names, never addresses.
        const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
        await client.startTLS({ ...tlsOptions, host, servername: net.isIP(host) ? undefined : host });
      }
      await client.bind(bindDn, bindPassword);
      // The size limit bounds what one search can cost the directory; when more people match, the server sends the
      // first `sizeLimit` and the client keeps them (ldapts does not throw for a size limit it asked for).
      const { searchEntries } = await client.search(baseDn, {
        scope: 'sub',
        filter,
        sizeLimit,
        timeLimit: Math.ceil(timeoutMs / 1000),
        attributes: [a.agencyId, a.givenName, a.surname, a.mail],
      });
      return searchEntries.map((e) => this.toEmployee(e)).filter((e): e is Employee => e !== null);
    } catch (err) {
      // The reason goes to the log for the operator; the caseworker gets the Swedish message.
      this.log.warn({ err: { name: (err as Error).name, message: (err as Error).message }, ldapUrl: url }, 'staff directory unavailable');
      throw directoryUnavailable();
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  private toEmployee(entry: Entry): Employee | null {
    const a = this.config.attributes;
    const signatur = first(entry, a.agencyId);
    if (!signatur) return null;
    const namn = [first(entry, a.givenName), first(entry, a.surname)].filter(Boolean).join(' ') || signatur;
    return { signatur, namn, elektroniskAdress: first(entry, a.mail) };
  }

  async close(): Promise<void> {
    this.cache.clear();
  }
}

const idKey = (agencyId: string) => `id:${agencyId.trim().toLocaleLowerCase('sv-SE')}`;

/** An attribute's first value as text; ldapts keys the entry by the attribute name as the server spelled it. */
function first(entry: Entry, attribute: string): string {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const v = Array.isArray(value) ? value[0] : value;
  return (Buffer.isBuffer(v) ? v.toString('utf8') : (v ?? '')).trim();
}
