import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../platform/free-port.ts';

/**
 * A throw-away OpenLDAP server (Debian's slapd) for the directory tests: its own configuration, database and port
 * on 127.0.0.1, started by the test and ended by its PID; any slapd the machine itself runs is never touched.
 *
 * The schema below gives people the Active Directory names the product defaults to (sAMAccountName, objectCategory,
 * userAccountControl; AD's own OIDs), with matching rules so that slapd can search them as AD does. objectCategory
 * is a plain string here ('person'), where AD stores a DN and expands `objectCategory=person` itself, and OpenLDAP's
 * integerBitAndMatch has the OID of AD's bitwise-AND rule, so the product's default filter runs unchanged.
 */
const AD_LIKE_SCHEMA = `
attributetype ( 1.2.840.113556.1.4.221 NAME 'sAMAccountName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.782 NAME 'objectCategory' EQUALITY caseIgnoreMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl' EQUALITY integerMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
objectclass ( 1.2.840.113556.1.5.9 NAME 'user' SUP inetOrgPerson STRUCTURAL
  MUST ( sAMAccountName $ objectCategory ) MAY userAccountControl )
objectclass ( 1.2.840.113556.1.3.30 NAME 'computer' SUP user STRUCTURAL )
`;

export const SLAPD_BASE_DN = 'dc=myndighet,dc=se';
const ROOT_DN = `cn=admin,${SLAPD_BASE_DN}`;
// Throw-away credentials of a throw-away server on loopback.
const ROOT_PASSWORD = 'slapd-test-root';
export const SLAPD_SERVICE_DN = `cn=svc-videomote,ou=Tjanstekonton,${SLAPD_BASE_DN}`;
export const SLAPD_SERVICE_PASSWORD = 'slapd-test-service';

export interface SeedPerson {
  agencyId: string;
  givenName: string;
  surname: string;
  mail?: string;
  /** AD's userAccountControl: 512 a normal account, 514 the same disabled. */
  userAccountControl?: number;
  /** 'computer' for a machine account, which AD also stores as a user. */
  kind?: 'person' | 'computer';
}

export interface Slapd {
  /** ldap:// on 127.0.0.1 (with `tls`, StartTLS is offered there and required before a bind). */
  url: string;
  /** With `tls`: ldaps:// on its own port (the certificate names 127.0.0.1 and localhost). */
  ldapsUrl: string | null;
  /** With `tls`: the PEM of the test CA that signed the server's certificate. */
  caFile: string | null;
  pid: number | undefined;
  /** Starts the server again on the same port and database (after `stop`). */
  start(): Promise<void>;
  /** Ends the server by its PID and waits until it has exited. */
  stop(): Promise<void>;
  /** Stops the server and removes its directory. */
  dispose(): Promise<void>;
}

const run = promisify(execFile);

async function waitForPort(port: number, child: ChildProcess, log: () => string, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`slapd did not listen on ${port} within ${deadlineMs} ms: ${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** LDIF text; values that LDIF cannot carry as they are (non-ASCII, leading space or colon) go base64-encoded. */
function ldifLine(name: string, value: string): string {
  return /^[\x20-\x7e]*$/.test(value) && !/^[ :<]/.test(value) ? `${name}: ${value}` : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}`;
}

function seedLdif(people: readonly SeedPerson[]): string {
  const entries = [
    [`dn: ${SLAPD_BASE_DN}`, 'objectClass: dcObject', 'objectClass: organization', 'dc: myndighet', 'o: Myndigheten'],
    [`dn: ou=Personal,${SLAPD_BASE_DN}`, 'objectClass: organizationalUnit', 'ou: Personal'],
    [`dn: ou=Tjanstekonton,${SLAPD_BASE_DN}`, 'objectClass: organizationalUnit', 'ou: Tjanstekonton'],
    [`dn: ${SLAPD_SERVICE_DN}`, 'objectClass: organizationalRole', 'objectClass: simpleSecurityObject', 'cn: svc-videomote', `userPassword: ${SLAPD_SERVICE_PASSWORD}`],
    ...people.map((p) => [
      ldifLine('dn', `cn=${p.agencyId},ou=Personal,${SLAPD_BASE_DN}`),
      'objectClass: user',
      ...(p.kind === 'computer' ? ['objectClass: computer'] : []),
      ldifLine('cn', p.agencyId),
      ldifLine('sAMAccountName', p.agencyId),
      `objectCategory: ${p.kind === 'computer' ? 'computer' : 'person'}`,
      `userAccountControl: ${p.userAccountControl ?? 512}`,
      ldifLine('givenName', p.givenName),
      ldifLine('sn', p.surname),
      ...(p.mail ? [ldifLine('mail', p.mail)] : []),
    ]),
  ];
  return entries.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

/** A throw-away CA and a certificate for localhost/127.0.0.1 signed by it (openssl). */
async function makeCertificates(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const f = (name: string) => path.join(dir, name);
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=Videomote test CA', '-keyout', f('ca.key'), '-out', f('ca.pem')]);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', f('server.key'), '-out', f('server.csr')]);
  fs.writeFileSync(f('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  await run('openssl', ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', f('server.ext'), '-out', f('server.pem')]);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

/**
 * Starts slapd on a free loopback port, seeds it with `people` (through ldapadd), and hands back how to stop it.
 * `tls`: also ldaps:// on a second port and StartTLS on the first, with a simple bind refused until the connection is
 * encrypted (so a client that forgot StartTLS fails as it would against a domain controller that requires it).
 */
export async function startSlapd(people: readonly SeedPerson[], options: { tls?: boolean } = {}): Promise<Slapd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-slapd-'));
  const tls = options.tls ? await makeCertificates(dir) : null;
  fs.mkdirSync(path.join(dir, 'db'));
  fs.writeFileSync(path.join(dir, 'ad-like.schema'), AD_LIKE_SCHEMA);
  const schemas = ['core', 'cosine', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`);
  fs.writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      ...schemas,
      `include ${path.join(dir, 'ad-like.schema')}`,
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${SLAPD_BASE_DN}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${path.join(dir, 'db')}`,
      'maxsize 16777216',
      // As an AD domain: nothing for anonymous callers, so a search that forgot to bind finds no one.
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
    ]
      .concat(tls ? [`TLSCACertificateFile ${tls.ca}`, `TLSCertificateFile ${tls.cert}`, `TLSCertificateKeyFile ${tls.key}`, 'security simple_bind=64'] : [])
      .join('\n') + '\n',
  );
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : null;
  const listen = ldapsUrl ? `${url} ${ldapsUrl}` : url;
  let child: ChildProcess | null = null;
  let output = '';

  const start = async () => {
    // -d 0 keeps slapd in the foreground, so the PID we hold is the server's own.
    child = spawn('/usr/sbin/slapd', ['-d', '0', '-h', listen, '-f', path.join(dir, 'slapd.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (b: Buffer) => void (output = (output + b.toString()).slice(-4000)));
    // Should the test process die first, the server goes with it rather than holding the port.
    const pid = child.pid;
    process.once('exit', () => {
      if (pid && child?.pid === pid && child.exitCode === null) process.kill(pid, 'SIGTERM');
    });
    await waitForPort(port, child, () => output);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    process.kill(c.pid!, 'SIGTERM');
    await exited;
  };

  try {
    await start();
    const ldif = path.join(dir, 'seed.ldif');
    fs.writeFileSync(ldif, seedLdif(people));
    // With `tls` the root DN binds over ldaps too (the server refuses simple binds in clear text).
    await run('ldapadd', ['-x', '-H', ldapsUrl ?? url, '-D', ROOT_DN, '-w', ROOT_PASSWORD, '-f', ldif], { env: { ...process.env, ...(tls ? { LDAPTLS_CACERT: tls.ca } : {}) } });
  } catch (err) {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    ldapsUrl,
    caFile: tls?.ca ?? null,
    get pid() {
      return (child as ChildProcess | null)?.pid;
    },
    start,
    stop,
    async dispose() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
