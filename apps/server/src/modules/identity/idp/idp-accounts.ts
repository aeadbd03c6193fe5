import crypto from 'node:crypto';
import type { Db } from '../../../platform/db.ts';
import type { PinCrypto } from '../../../platform/crypto.ts';
import type { Persona } from '../personas.ts';

/** One person the test IdP vouches for, with the claims it hands to our client. */
export interface IdpAccount {
  sub: string;
  givenName: string;
  familyName: string;
  roles: string;
  afId: string | null;
  pin: string | null;
}

const opaque = (input: string) => crypto.createHash('sha256').update(input).digest('base64url').slice(0, 32);

// The subject must be stable per person yet never the personnummer itself: derived from the keyed pin hash, so
// it cannot be reversed or guessed without the server's key.
export const subForPin = (pin: string, pins: PinCrypto) => opaque(`pin:${pins.hash(pin)}`);
export const subForPersona = (persona: Persona, pins: PinCrypto) =>
  persona.pin ? subForPin(persona.pin, pins) : opaque(`staff:${persona.afId}`);

export function accountForPersona(persona: Persona, pins: PinCrypto): IdpAccount {
  return {
    sub: subForPersona(persona, pins),
    givenName: persona.firstName,
    familyName: persona.lastName,
    roles: persona.roles,
    afId: persona.afId,
    pin: persona.pin,
  };
}

export class IdpAccountRepository {
  constructor(
    private readonly db: Db,
    private readonly pins: PinCrypto,
  ) {}

  async save(account: IdpAccount): Promise<void> {
    await this.db.query(
      `INSERT INTO idp_accounts (sub, given_name, family_name, roles, af_id, pin_encrypted, last_login) VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (sub) DO UPDATE SET given_name = EXCLUDED.given_name, family_name = EXCLUDED.family_name, roles = EXCLUDED.roles,
         af_id = EXCLUDED.af_id, pin_encrypted = EXCLUDED.pin_encrypted, last_login = now()`,
      [account.sub, account.givenName, account.familyName, account.roles, account.afId, account.pin ? this.pins.encrypt(account.pin) : null],
    );
    await this.forgetOld();
  }

  /** A test IdP has no business keeping personnummer: people are forgotten a day after their last login. */
  async forgetOld(): Promise<void> {
    await this.db.query("DELETE FROM idp_accounts WHERE last_login < now() - interval '1 day'");
  }

  async find(sub: string): Promise<IdpAccount | null> {
    const rows = await this.db.query<{ sub: string; given_name: string; family_name: string; roles: string; af_id: string | null; pin_encrypted: string | null }>(
      'SELECT sub, given_name, family_name, roles, af_id, pin_encrypted FROM idp_accounts WHERE sub = $1',
      [sub],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      sub: r.sub,
      givenName: r.given_name,
      familyName: r.family_name,
      roles: r.roles,
      afId: r.af_id,
      pin: r.pin_encrypted ? this.pins.decrypt(r.pin_encrypted) : null,
    };
  }
}
