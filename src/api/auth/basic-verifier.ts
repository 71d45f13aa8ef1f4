import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlainCredential } from './http-credentials';
import { formatPasswordHash, SCRYPT_DEFAULTS, verifyPassword, type ScryptHash } from './password-hash';

/** Where the hashed users come from (a reloadable credentials file). */
export interface HashedUsers {
  readonly content: ReadonlyMap<string, ScryptHash>;
}

/** Successful scrypt verifications remembered; beyond this the memory starts over. */
const MAX_REMEMBERED = 1024;

/**
 * Checks HTTP basic credentials against `--http_credentials` (plain pairs, compared as SHA-256
 * digests with `timingSafeEqual`) and the credentials file (scrypt, `password-hash.ts`). A user
 * unknown to both still costs one scrypt run at the file's own cost when a file is configured, so
 * the answer time does not tell which users exist. A scrypt run takes about 0.1 s: a verified (user, password, hash)
 * is remembered as an HMAC under a key of this process (never the password itself), so a client
 * sending the same credentials on every request pays once; a changed hash (file reload) is a new
 * key, so nothing stale is accepted.
 */
export class BasicVerifier {
  private readonly plain: ReadonlyMap<string, Buffer>;
  private readonly rememberKey = randomBytes(32);
  private readonly remembered = new Set<string>();
  private readonly decoySalt = randomBytes(16);

  constructor(plain: readonly PlainCredential[], private readonly hashed: HashedUsers | undefined) {
    this.plain = new Map(plain.map((c) => [c.user, digest(c.password)]));
  }

  /** Whether `password` is `user`'s. Never rejects. */
  async verify(user: string, password: string): Promise<boolean> {
    const plain = this.plain.get(user);
    if (plain !== undefined && timingSafeEqual(plain, digest(password))) return true;
    if (this.hashed === undefined) return false;
    const hash = this.hashed.content.get(user);
    if (hash === undefined) {
      await verifyPassword(password, this.decoy()).catch(() => false);
      return false;
    }
    const memo = createHmac('sha256', this.rememberKey).update(`${user}\0${password}\0${formatPasswordHash(hash)}`).digest('base64');
    if (this.remembered.has(memo)) return true;
    const ok = await verifyPassword(password, hash).catch(() => false);
    if (ok) this.remember(memo);
    return ok;
  }

  /** A hash nobody's password matches, at the cost of the file's own hashes. */
  private decoy(): ScryptHash {
    const first = this.hashed?.content.values().next().value;
    const params = first ?? SCRYPT_DEFAULTS;
    return { logN: params.logN, r: params.r, p: params.p, salt: this.decoySalt, hash: this.decoySalt };
  }

  private remember(memo: string): void {
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.add(memo);
  }
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
