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
 * key, so nothing stale is accepted. Verifications of the same (user, password, hash) that arrive
 * while its check runs share that run and its result, success, failure or `'busy'` alike (a client
 * opening many connections at once with a password not yet remembered costs one run, not one per
 * connection); the check is keyed by the same HMAC, never by the password. Every scrypt run passes
 * the {@link ScryptGate}: when it is full the answer is `'busy'` (the API's 503) before any run.
 */
export class BasicVerifier {
  private readonly plain: ReadonlyMap<string, Buffer>;
  private readonly rememberKey = randomBytes(32);
  private readonly remembered = new Set<string>();
  /**
   * Checks under way, by memo key: a verification of the same (user, password, hash) while one
   * runs gets its result instead of a scrypt run of its own. At most the gate's runs and queue
   * (a check the gate refused ends at once), so bounded as the gate is.
   */
  private readonly running = new Map<string, Promise<boolean | 'busy'>>();
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
    const known = this.hashed.content.get(user);
    // An unknown user's check is the same as a known one's, decoy hash and sharing included: a
    // burst of the same credentials must not take longer for a user that does not exist.
    const hash = known ?? this.decoy();
    const memo = createHmac('sha256', this.rememberKey).update(`${user}\0${password}\0${formatPasswordHash(hash)}`).digest('base64');
    if (known !== undefined && this.remembered.has(memo)) return true;
    const running = this.running.get(memo);
    if (running !== undefined) return running;
    const check = this.check(password, hash, known !== undefined, memo);
    this.running.set(memo, check);
    return check;
  }

  /** One scrypt run of `password` against `hash`, shared by every verification of its `memo` until it ends. */
  private async check(password: string, hash: ScryptHash, known: boolean, memo: string): Promise<boolean | 'busy'> {
    try {
      const ok = await this.gate.run(() => verifyPassword(password, hash).catch(() => false));
      if (ok === true && known) this.remember(memo);
      return known ? ok : ok === 'busy' ? 'busy' : false;
    } finally {
      this.running.delete(memo);
    }
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
