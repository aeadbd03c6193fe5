import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Personal identity numbers are stored encrypted (AES-256-GCM) and found by a keyed hash (HMAC-SHA256), so a
 * database dump alone reveals neither the numbers nor a way to test guesses against them.
 */
export interface PinCrypto {
  encrypt(pin: string): string;
  decrypt(blob: string): string;
  hash(pin: string): string;
}

export function loadSecretKey(dataDir: string, configured: string | null): Buffer {
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('PIN_KEY must be 32 bytes, base64');
    return key;
  }
  const file = path.join(dataDir, 'keys', 'pin.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

export function pinCrypto(key: Buffer): PinCrypto {
  const encKey = crypto.createHmac('sha256', key).update('encrypt').digest();
  const macKey = crypto.createHmac('sha256', key).update('lookup').digest();
  return {
    encrypt(pin) {
      const iv = randomBytesPooled(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(pin, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(blob) {
      const raw = Buffer.from(blob, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    hash(pin) {
      return crypto.createHmac('sha256', macKey).update(pin).digest('base64url');
    },
  };
}

const randomPool = Buffer.alloc(4096);
let randomPoolOffset = randomPool.length;

/**
 * Bytes from the operating system's CSPRNG, served from a 4 KiB buffer it refills, as Node's own crypto.randomUUID
 * does: one native call per few hundred values instead of one each (the calls were 4 % of a booking's server CPU:
 * two IVs and a room id). Each byte is handed out once, as a copy. Secrets that live long (keys, session tokens)
 * still come from crypto.randomBytes directly.
 */
export function randomBytesPooled(size: number): Buffer {
  if (size > randomPool.length) return crypto.randomBytes(size);
  if (randomPoolOffset + size > randomPool.length) {
    crypto.randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  const bytes = Buffer.from(randomPool.subarray(randomPoolOffset, randomPoolOffset + size));
  randomPoolOffset += size;
  return bytes;
}

export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');
