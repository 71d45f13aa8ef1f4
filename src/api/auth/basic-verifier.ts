import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlainCredential } from './http-credentials';
import { formatPasswordHash, SCRYPT_DEFAULTS, verifyPassword, type ScryptHash } from './password-hash';
import { ScryptGate } from './scrypt-gate';

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
 * key, so nothing stale is accepted. Every scrypt run passes the {@link ScryptGate}: when it is full
 * the answer is `'busy'` (the API's 503) before any run.
 */
export class BasicVerifier {
  private readonly plain: ReadonlyMap<string, Buffer>;
  private readonly rememberKey = randomBytes(32);
  private readonly remembered = new Set<string>();
  private readonly decoySalt = randomBytes(16);

  constructor(
    plain: readonly PlainCredential[],
    private readonly hashed: HashedUsers | undefined,
    /** Bounds the scrypt runs (default: one at a time, 32 waiting). */
    readonly gate: ScryptGate = new ScryptGate(),
  ) {
    this.plain = new Map(plain.map((c) => [c.user, digest(c.password)]));
  }

  /**
   * Whether `password` is `user`'s; `'busy'` when it needed a scrypt run and the gate was full
   * (nothing was checked: the caller may try again). Never rejects.
   */
  async verify(user: string, password: string): Promise<boolean | 'busy'> {
    const plain = this.plain.get(user);
    if (plain !== undefined && timingSafeEqual(plain, digest(password))) return true;
    if (this.hashed === undefined) return false;
    const hash = this.hashed.content.get(user);
    if (hash === undefined) {
      const decoy = this.decoy();
      const ran = await this.gate.run(() => verifyPassword(password, decoy).catch(() => false));
      return ran === 'busy' ? 'busy' : false;
    }
    const memo = createHmac('sha256', this.rememberKey).update(`${user}\0${password}\0${formatPasswordHash(hash)}`).digest('base64');
    if (this.remembered.has(memo)) return true;
    const ok = await this.gate.run(() => verifyPassword(password, hash).catch(() => false));
    if (ok === true) this.remember(memo);
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
