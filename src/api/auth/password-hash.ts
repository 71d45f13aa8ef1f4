import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * A password hash in the PHC string format (the format of passlib, argon2 and libsodium's
 * tools): `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`, salt and hash in base64 without
 * padding. scrypt comes with node:crypto, so the credentials file needs no native dependency.
 */
export interface ScryptHash {
  /** log2 of scrypt's cost parameter N. */
  readonly logN: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/** What `npm run passwd` writes: N = 2^15, r = 8, p = 1 (32 MiB, about 0.1 s on this machine). */
export const SCRYPT_DEFAULTS = { logN: 15, r: 8, p: 1 } as const;

/** Bounds on the parameters read from a file: a typo must not make every login take minutes. */
const LIMITS = { logN: [10, 20], r: [1, 32], p: [1, 16] } as const;

const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Parses a PHC scrypt string; undefined (never an exception) when it is not one within the bounds. */
export function parsePasswordHash(text: string): ScryptHash | undefined {
  const m = PHC.exec(text);
  if (m === null) return undefined;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!within(logN, LIMITS.logN) || !within(r, LIMITS.r) || !within(p, LIMITS.p)) return undefined;
  const salt = Buffer.from(m[4], 'base64');
  const hash = Buffer.from(m[5], 'base64');
  if (salt.length < 8 || hash.length < 16) return undefined;
  return { logN, r, p, salt, hash };
}

/** The PHC string of `h`. */
export function formatPasswordHash(h: ScryptHash): string {
  return `$scrypt$ln=${h.logN},r=${h.r},p=${h.p}$${unpadded(h.salt)}$${unpadded(h.hash)}`;
}

/** Hashes `password` with a fresh 16-byte salt; the PHC string to put in a credentials file. */
export async function hashPassword(password: string, params: { logN: number; r: number; p: number } = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, 32, params);
  return formatPasswordHash({ ...params, salt, hash });
}

/** Whether `password` matches `h`; the final comparison is constant-time. scrypt runs off the event loop. */
export async function verifyPassword(password: string, h: ScryptHash): Promise<boolean> {
  const derived = await derive(password, h.salt, h.hash.length, h);
  return timingSafeEqual(derived, h.hash);
}

function derive(password: string, salt: Buffer, keyLength: number, params: { logN: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** params.logN;
  // Node refuses when 128 * N * r reaches maxmem (default 32 MiB, exactly N = 2^15, r = 8).
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err === null ? resolve(key) : reject(err)));
  });
}

function within(n: number, [min, max]: readonly [number, number]): boolean {
  return Number.isInteger(n) && n >= min && n <= max;
}

function unpadded(b: Buffer): string {
  return b.toString('base64').replace(/=+$/, '');
}
