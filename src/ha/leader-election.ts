import { performance } from 'node:perf_hooks';
import { leaderZnode } from '../cluster/mesos/zk/leader-znode';
import { ZkError } from '../cluster/mesos/zk/zk-error';
import { digestAcl, OPEN_ACL, ZK_CODES, ZkSession, type ZkSessionOptions, type ZkSessionState } from '../cluster/mesos/zk/zk-session';
import { describeZkUrl, type ZkUrl } from '../cluster/mesos/zk/zk-url';

/**
 * The lease: the share of the session timeout after which a leader that heard nothing from
 * ZooKeeper stops serving requests (its state turns {@link ElectionState.stale}).
 */
export const LEASE_SHARE = 2 / 3;
/**
 * The teardown bound: the share of the session timeout after which a leader that heard nothing
 * from ZooKeeper stops leading (its duties end). The server expires the session only after a
 * whole timeout without hearing from it; the tenth left is the margin for the latency of this
 * process's timers and the rate of its clock.
 */
export const TEARDOWN_SHARE = 0.9;

/** The label of pacer's election znodes: `<zk path>/leader/latch-<10-digit sequence>`. */
export const LATCH_PREFIX = 'latch-';

/** What this process knows of the election. */
export interface ElectionState {
  /**
   * This process leads (its duties run): its znode is the lowest, its session is connected, and
   * ZooKeeper answered it recently enough that the session cannot have expired (see
   * {@link LeaderElection}: less than {@link TEARDOWN_SHARE} of the session timeout ago).
   */
  readonly elected: boolean;
  /**
   * Elected, but its lease lapsed: no answer for {@link LEASE_SHARE} of the session timeout. It
   * keeps its duties (no other process can lead yet) and serves no request until ZooKeeper answers
   * again. Absent: false (an election without a lease, such as a test's).
   */
  readonly stale?: boolean;
  /** The `host:port` the lowest znode carries (possibly this process's own), undefined when none is known. */
  readonly leader: string | undefined;
}

/** The election as the rest of pacer uses it (a test may stand in a fake). */
export interface ElectionSource {
  readonly current: ElectionState;
  /** Called synchronously on every change of {@link current}. */
  onChange(listener: (state: ElectionState) => void): void;
  /** Gives up leadership and joins again at the end of the line (DELETE /v2/leader). */
  abdicate(): Promise<void>;
  close(): void;
  /** Checks now, not only on a timer, that ZooKeeper answered recently enough to lead (absent: nothing to check). */
  checkLeaseNow?(): void;
  /** Reads the election again now; resolves once read (absent: nothing to read). */
  refresh?(): Promise<void>;
}

export interface LeaderElectionOptions {
  /** `--zk`: the ensemble, the digest credentials and the path (`<path>/leader` holds the election). */
  readonly url: ZkUrl;
  /**
   * The advertised `host:port` (`--hostname` and the HTTP port), the data of this process's znode;
   * read when joining (the port is known once the API listens).
   */
  readonly id: () => string;
  readonly session: ZkSessionOptions;
  /**
   * Lines worth an operator's attention: leadership gained (`info`); leadership lost or suspended,
   * a session expired, an election that failed (`warn`).
   */
  readonly log?: (line: string, level: ElectionLogLevel) => void;
  /** Wait before opening a new session after the last one expired or could not join (default 1000 ms). */
  readonly rejoinDelayMs?: number;
}

/** `<zk path>/leader` (Marathon's `zooKeeperLeaderPath`, `ZookeeperConf.scala`). */
export function leaderPathOf(url: ZkUrl): string {
  return `${url.path === '/' ? '' : url.path}/leader`;
}

/**
 * pacer's leader election on ZooKeeper, the standard recipe Marathon's Curator `LeaderLatch`
 * follows (`core/election/CuratorElectionStream.scala`): each contender creates an ephemeral
 * sequential znode `latch-` under `<zk path>/leader` holding its advertised `host:port`; the
 * lowest sequence leads; every contender watches the children, so each knows the leader's
 * `host:port` (standbys proxy to it). Marathon 1.11 keeps its latch under `<path>/leader-curator`;
 * pacer uses `<path>/leader`, so pacers and Marathons never contend with one another.
 *
 * Leadership is given up at once, never late: {@link ElectionState.elected} turns false
 * synchronously when the session reports a disconnection (the library's socket closed), when it
 * expires, on abdication and on close. Silence is the case the library does not detect (it has
 * no read timeout: a server or network that goes silent leaves the socket open), and a process
 * that stalls (a long GC, a long synchronous start of its duties) looks the same from inside. The
 * server expires a session only after a whole timeout without hearing from it, and every answered
 * request proves it heard us no earlier than we sent it (`confirmedAtMs`): until `confirmedAtMs`
 * + the session timeout this session's znode stays, and no other contender can be elected. So,
 * measured from `confirmedAtMs`, the lease has two tiers:
 * - past {@link LEASE_SHARE} (2/3): `stale` — the leader serves no request (the session may be
 *   nearing its end) but keeps its duties, and probes at once; the first answer on the same
 *   session makes it fresh again, without restarting anything. Restarting the duties reloads the
 *   whole state from ZooKeeper, which for a large state blocks the loop past the lease again: a
 *   leader that lapsed at the end of each start never served;
 * - past {@link TEARDOWN_SHARE} (0.9): `elected` turns false, the duties stop (a one-shot timer
 *   fires at that bound while stale, besides the periodic check); an answer on the same session
 *   afterwards elects it again (a new term, from the store).
 * Both are checked on a timer (every sixth of the timeout, when the probe is sent) and by
 * {@link checkLeaseNow} before every request. An expired session is replaced: the process joins
 * again, at the end of the line, with a new session.
 */
export class LeaderElection implements ElectionSource {
  private readonly path: string;
  private session: ZkSession | undefined;
  /** This session's znode name, undefined between abdication's delete and create. */
  private member: string | undefined;
  /** Bumped per session: answers and events of an older session are ignored. */
  private generation = 0;
  private connected = false;
  private ownsLowest = false;
  private leaderId: string | undefined;
  /** performance.now() at which the last answered request was sent. */
  private confirmedAtMs = 0;
  /** Silent past the lease ({@link LEASE_SHARE}): not serving. */
  private stale = false;
  /** Silent past the teardown bound ({@link TEARDOWN_SHARE}): not leading. */
  private leaseLost = false;
  private lease: NodeJS.Timeout | undefined;
  /** While stale: fires at the teardown bound. */
  private teardown: NodeJS.Timeout | undefined;
  private rejoinTimer: NodeJS.Timeout | undefined;
  private evaluating = false;
  private again = false;
  /** {@link refresh} calls waiting for the evaluation under way (and the pass it asked for) to end. */
  private refreshed: (() => void)[] = [];
  private closed = false;
  private state: ElectionState = { elected: false, leader: undefined };
  private readonly listeners: ((state: ElectionState) => void)[] = [];

  /** Not joined yet: {@link join} does. */
  /**
   * This process's election znode (`<path>/leader/latch-…`), undefined while it has none. A
   * leader's store writes check that it still exists (src/store/zk/zk-store.ts `fence`): once it
   * is gone — abdicated, or deleted with an expired session — no write of this term can land.
   */
  memberPath(): string | undefined {
    return this.member === undefined ? undefined : `${this.path}/${this.member}`;
  }

  constructor(private readonly options: LeaderElectionOptions) {
    this.path = leaderPathOf(options.url);
  }

  /** A new election, joined. */
  static async start(options: LeaderElectionOptions): Promise<LeaderElection> {
    const election = new LeaderElection(options);
    await election.join();
    return election;
  }

  get current(): ElectionState {
    return this.state;
  }

  onChange(listener: (state: ElectionState) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Gives up leadership: `elected` turns false before anything else (synchronously), then the
   * znode is deleted — the next contender leads — and a new one is created at the end of the line.
   * A single contender is therefore elected again at once.
   */
  async abdicate(): Promise<void> {
    const session = this.session;
    const member = this.member;
    if (session === undefined || member === undefined || this.closed) return;
    this.member = undefined;
    this.ownsLowest = false;
    this.publish();
    this.say(`abdicating: deleting ${this.path}/${member}`);
    try {
      await session.delete(`${this.path}/${member}`).catch(ignoreCode(ZK_CODES.NONODE));
      this.member = await this.createMember(session);
    } catch (err) {
      this.say(`abdication: ${(err as Error).message}; joining again with a new session`, 'warn');
      this.dropSession();
      return;
    }
    await this.evaluate();
  }

  /**
   * Reads the members again now, as their watch would, and resolves once that read is done (at
   * once without a session). For a peer whose view of the election disagrees with this one's: its
   * watch may simply not have fired here yet (src/ha/leader-proxy.ts).
   */
  refresh(): Promise<void> {
    if (this.session === undefined || this.closed) return Promise.resolve();
    if (!this.evaluating) return this.evaluate();
    this.again = true;
    return new Promise((resolve) => this.refreshed.push(resolve));
  }

  /** Leaves the election (the session ends, its znode goes with it); `elected` is false from now on. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.lease);
    clearTimeout(this.teardown);
    clearTimeout(this.rejoinTimer);
    this.ownsLowest = false;
    this.publish();
    this.session?.close();
    this.session = undefined;
  }

  /**
   * Joins the election: opens a session, creates `<path>/leader` if needed and this process's
   * znode. Rejects (nothing left open) when ZooKeeper cannot be reached or refuses the credentials.
   */
  async join(): Promise<void> {
    const generation = ++this.generation;
    const session = await ZkSession.open(this.options.url, this.options.session);
    if (this.closed || generation !== this.generation) {
      session.close();
      return;
    }
    try {
      session.onState((s) => this.onSessionState(generation, s));
      await this.ensurePath(session);
      const sentAtMs = performance.now();
      const member = await this.createMember(session);
      this.session = session;
      this.member = member;
      this.connected = true;
      this.confirmedAtMs = sentAtMs;
      this.stale = false;
      this.leaseLost = false;
    } catch (err) {
      session.close();
      throw err;
    }
    this.startLease();
    await this.evaluate();
  }

  private async createMember(session: ZkSession): Promise<string> {
    const created = await session.create(`${this.path}/${LATCH_PREFIX}`, Buffer.from(this.options.id(), 'utf8'), 'ephemeralSequential', this.acl());
    return created.slice(this.path.length + 1);
  }

  /** Creates every missing znode of `<path>/leader` (another contender may create them at the same time). */
  private async ensurePath(session: ZkSession): Promise<void> {
    const segments = this.path.split('/').slice(1);
    for (let i = 1; i <= segments.length; i++) {
      const prefix = `/${segments.slice(0, i).join('/')}`;
      await session.create(prefix, Buffer.alloc(0), 'persistent', this.acl()).catch(ignoreCode(ZK_CODES.NODEEXISTS));
    }
  }

  /** With `zk://user:pass@…` the znodes are the digest identity's alone, as the store's are. */
  private acl(): ReturnType<typeof digestAcl> {
    const digest = this.options.url.digest;
    return digest === undefined ? [...OPEN_ACL] : digestAcl(digest.user, digest.password);
  }

  private onSessionState(generation: number, state: ZkSessionState): void {
    if (generation !== this.generation || this.closed) return;
    if (state === 'disconnected') {
      this.connected = false;
      this.publish();
    } else if (state === 'connected') {
      this.connected = true;
      void this.evaluate();
    } else {
      this.say(`ZooKeeper session ${describeZkUrl(this.options.url)} expired; joining the election again with a new session`, 'warn');
      this.dropSession();
    }
  }

  /** The session is gone (expired, or unusable): nothing is known any more; a new one joins later. */
  private dropSession(): void {
    this.generation++;
    this.session?.close();
    this.session = undefined;
    this.member = undefined;
    this.connected = false;
    this.ownsLowest = false;
    this.leaderId = undefined;
    clearInterval(this.lease);
    clearTimeout(this.teardown);
    this.publish();
    this.scheduleRejoin();
  }

  private scheduleRejoin(): void {
    if (this.closed || this.rejoinTimer !== undefined) return;
    this.rejoinTimer = setTimeout(() => {
      this.rejoinTimer = undefined;
      this.join().catch((err: unknown) => {
        this.say(`cannot join the election: ${(err as Error).message}; trying again`, 'warn');
        this.scheduleRejoin();
      });
    }, this.options.rejoinDelayMs ?? 1000);
  }

  /** Reads the members (watching them) and decides; runs once at a time, again if asked meanwhile. */
  private async evaluate(): Promise<void> {
    if (this.evaluating) {
      this.again = true;
      return;
    }
    this.evaluating = true;
    try {
      do {
        this.again = false;
        await this.evaluateOnce();
      } while (this.again && !this.closed);
    } finally {
      this.evaluating = false;
      const refreshed = this.refreshed;
      this.refreshed = [];
      for (const done of refreshed) done();
    }
  }

  private async evaluateOnce(): Promise<void> {
    const session = this.session;
    const generation = this.generation;
    if (session === undefined || this.closed) return;
    try {
      const sentAtMs = performance.now();
      const children = await session.getChildren(this.path, () => void this.evaluate());
      if (generation !== this.generation) return;
      this.confirm(sentAtMs);
      if (this.member !== undefined && !children.includes(this.member)) {
        // Someone deleted this process's znode (an operator, by hand): join the line again.
        this.say(`${this.path}/${this.member} was deleted; joining the election again`);
        this.member = undefined;
        this.ownsLowest = false;
        this.publish();
        this.member = await this.createMember(session);
        this.again = true;
        return;
      }
      const lowest = leaderZnode(children, LATCH_PREFIX);
      const leaderId = lowest === undefined ? undefined : (await session.getData(`${this.path}/${lowest}`)).toString('utf8');
      if (generation !== this.generation) return;
      this.ownsLowest = lowest !== undefined && lowest === this.member;
      this.leaderId = leaderId;
      this.publish();
    } catch (err) {
      if (err instanceof ZkError && err.kind === 'SERVER' && err.serverCode === ZK_CODES.NONODE) {
        this.again = true; // the lowest went between the two reads
        return;
      }
      // Connection trouble: the session's own events (disconnected, expired) say what follows.
      this.say(`election: ${(err as Error).message}`, 'warn');
    }
  }

  /** An answer to a request sent at `sentAtMs`: the server heard this session no earlier. */
  private confirm(sentAtMs: number): void {
    if (sentAtMs > this.confirmedAtMs) this.confirmedAtMs = sentAtMs;
    const silentMs = performance.now() - this.confirmedAtMs;
    if (this.stale && silentMs <= this.leaseMs()) {
      if (!this.leaseLost && this.state.stale === true) this.say(`ZooKeeper answered again (the same session): serving again`);
      this.stale = false;
      this.leaseLost = false;
      clearTimeout(this.teardown);
      this.publish();
    }
  }

  /** {@link LEASE_SHARE} of the negotiated session timeout: beyond it without an answer, this session may be nearing its end. */
  private leaseMs(): number {
    return this.sessionTimeoutMs() * LEASE_SHARE;
  }

  /** {@link TEARDOWN_SHARE} of the negotiated session timeout: beyond it without an answer, leadership ends. */
  private teardownMs(): number {
    return this.sessionTimeoutMs() * TEARDOWN_SHARE;
  }

  private sessionTimeoutMs(): number {
    return this.session?.sessionTimeoutMs ?? this.options.session.sessionTimeoutMs;
  }

  /** Probes the session every sixth of its timeout and checks the lease as often. */
  private startLease(): void {
    clearInterval(this.lease);
    const session = this.session;
    if (session === undefined) return;
    const periodMs = Math.max(20, Math.floor(session.sessionTimeoutMs / 6));
    this.lease = setInterval(() => this.checkLease(session), periodMs);
    this.lease.unref();
  }

  private checkLease(session: ZkSession): void {
    if (session !== this.session || this.closed) return;
    this.lapseIfSilent();
    this.probe(session);
  }

  /**
   * Asks whether this process's znode exists: an answer confirms the session (and a missing znode
   * makes the election read again). Errors need nothing here: the session's own events (expired,
   * disconnected) say what follows.
   */
  private probe(session: ZkSession): void {
    const member = this.member;
    if (member === undefined) return;
    const sentAtMs = performance.now();
    session.exists(`${this.path}/${member}`).then((exists) => {
      if (session !== this.session) return;
      this.confirm(sentAtMs);
      if (!exists) void this.evaluate();
    }, () => undefined);
  }

  /**
   * Checks the lease now rather than at its timer's next tick. After the process stalled (stopped
   * with SIGSTOP, a long GC, swapping) Node may run an I/O callback — a request — before the
   * lease's timer, and that request would find this process still elected although ZooKeeper may
   * have expired its session and elected another. leadership.ts `serving` calls it at every read.
   */
  checkLeaseNow(): void {
    if (this.session === undefined || this.closed) return;
    // Lapsed just now: ask at once rather than at the timer's next tick, so that a leader that
    // only stalled serves again after one round trip.
    if (this.lapseIfSilent()) this.probe(this.session);
  }

  /**
   * Milliseconds since the send of the last request of this session that ZooKeeper answered: the
   * silence the lease is measured by (the server heard this session no earlier than that send).
   * For diagnostics and tests.
   */
  silentForMs(): number {
    return performance.now() - this.confirmedAtMs;
  }

  /**
   * No answer from ZooKeeper for longer than the lease: stop serving (and time the teardown bound);
   * for longer than the teardown bound: stop leading. Both until it answers again. Answers whether
   * the lease lapsed (either tier) in this call: the caller may probe at once.
   * Decided here, synchronously, whoever calls: a decision deferred past the I/O phase would not
   * spare a stalled leader its staleness (the answers read there are to probes sent before the
   * stall, and the silence counts from their sending), and would let cluster inputs read in that
   * phase reach duties past the teardown bound.
   */
  private lapseIfSilent(): boolean {
    const silentMs = performance.now() - this.confirmedAtMs;
    if (!this.leaseLost && silentMs > this.teardownMs()) {
      this.leaseLost = true;
      this.stale = true;
      clearTimeout(this.teardown);
      if (this.ownsLowest) this.say(`no answer from ZooKeeper for ${Math.round(silentMs)} ms: not leading until it answers again`, 'warn');
      this.publish();
      return true;
    }
    if (!this.stale && silentMs > this.leaseMs()) {
      this.stale = true;
      const leftMs = Math.round(this.teardownMs() - silentMs);
      if (this.state.elected) {
        this.say(`no answer from ZooKeeper for ${Math.round(silentMs)} ms: not serving requests until it answers again (still leading: not leading any more in ${leftMs} ms without an answer)`, 'warn');
      }
      this.armTeardown();
      this.publish();
      return true;
    }
    return false;
  }

  /** While stale: checks again at the teardown bound (later if an answer moved it meanwhile). */
  private armTeardown(): void {
    clearTimeout(this.teardown);
    const session = this.session;
    if (session === undefined) return;
    // +1: a timer may fire a fraction of a millisecond before performance.now() reaches its time.
    const dueMs = Math.max(0, this.confirmedAtMs + this.teardownMs() - performance.now()) + 1;
    this.teardown = setTimeout(() => {
      this.teardown = undefined;
      if (session !== this.session || this.closed) return;
      this.lapseIfSilent();
      if (this.stale && !this.leaseLost) this.armTeardown();
    }, dueMs);
    this.teardown.unref();
  }

  /**
   * Recomputes the state; tells the listeners (synchronously) when it changed. Both news lines are
   * said here, whichever path changed the state: leadership also comes back through the lease (the
   * first answer after a reconnection of the same session), not only through the members' read.
   */
  private publish(): void {
    const elected = this.ownsLowest && this.connected && !this.leaseLost && !this.closed;
    const stale = elected && this.stale;
    const leader = this.closed ? undefined : this.leaderId;
    if (elected === this.state.elected && leader === this.state.leader && stale === (this.state.stale ?? false)) return;
    const wasLeader = this.state.elected;
    this.state = { elected, leader, stale };
    if (wasLeader && !elected) this.say('not the leader any more', 'warn');
    if (!wasLeader && elected) this.say(`elected leader (${this.memberPath() ?? this.path})`);
    for (const listener of this.listeners) listener(this.state);
  }

  private say(line: string, level: ElectionLogLevel = 'info'): void {
    this.options.log?.(line, level);
  }
}

/** How much an election line matters (see {@link LeaderElectionOptions.log}). */
export type ElectionLogLevel = 'info' | 'warn';

/** A rejection handler that accepts one KeeperException code as success. */
function ignoreCode(code: number): (err: unknown) => void {
  return (err) => {
    if (err instanceof ZkError && err.kind === 'SERVER' && err.serverCode === code) return;
    throw err;
  };
}
