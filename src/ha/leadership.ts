import type { ApiDeps } from '../api/api-deps';
import type { MesosDriverMetrics } from '../cluster/mesos/driver-metrics';
import type { Durability } from '../store/durable-driver';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import type { Scheduler } from '../scheduler/index';
import type { ElectionSource, ElectionState } from './leader-election';

/**
 * What only the leader runs: the scheduler core over its store, its loop and the cluster driver
 * (deployments, health checks, launches and kills all live in the core).
 */
export interface LeaderDuties {
  readonly scheduler: Scheduler;
  /** An API command through the loop (LoopLike.submit). */
  submit(command: Command): CommandResult;
  /** The framework id once subscribed (`/v2/info`). */
  frameworkId(): string | undefined;
  /** On Mesos: the driver's counts for `/metrics`. */
  readonly driverMetrics?: () => MesosDriverMetrics;
  /** The store writes behind (ZooKeeper): the API answers a change once its writes are durable (durable-replies.ts). */
  readonly durability?: Durability;
  /** The flight recorder's ring (`POST /pacer/v1/recording`). */
  readonly recording?: NonNullable<ApiDeps['recording']>;
  /** What-if questions over a fork of this term's core (`?dryRun=true&simulate=`, `/v2/capacity`). */
  readonly whatIf?: NonNullable<ApiDeps['whatIf']>;
  /**
   * Stops scheduling at once and for good, synchronously: when it returns, no input reaches the
   * core any more and the driver makes no further call to the cluster (no launch, no kill); the
   * store is closed (and its lock released) so that this or another process can start again.
   */
  stop(): void;
}

/** Leadership as the API's edge sees it (src/ha/leader-proxy.ts). */
export interface LeadershipView {
  /** The `host:port` this process advertises (`--hostname`, HTTP port). */
  readonly self: string;
  /** Whether this process schedules now: elected, and its duties running. */
  serving(): boolean;
  /** The leader's `host:port` as known here (this process's own while it leads), undefined when none is known. */
  leader(): string | undefined;
  /** Resolves at the next change of leadership, or after `timeoutMs`. */
  nextChange(timeoutMs: number): Promise<void>;
  /**
   * Reads the election from ZooKeeper again, not waiting for a watch; resolves once read, its
   * change (if any) followed. Absent: a view that cannot be read again (a test's).
   */
  refresh?(): Promise<void>;
}

/** What happens around a term (one stretch of leadership). */
export interface TermListener {
  /** The duties just started (the event stream attaches to the new core). */
  begun(duties: LeaderDuties): void;
  /** The duties just stopped (the event stream ends its clients). */
  ended(): void;
}

/**
 * Starts the leader's duties when this process is elected and stops them, synchronously, in the
 * same call that reports the loss (session lost or silent, abdication, close): nothing runs
 * between the election's news and the stop. A standby that wins starts its duties from the store
 * (`startDuties`, which recovers the core from it); they may start asynchronously (the ZooKeeper
 * store is read first): meanwhile this process does not serve (requests wait for the next change,
 * as when no leader is known), and duties that arrive after the term ended are stopped at once,
 * never served. When the duties cannot start (a store another process holds, a corrupt one),
 * `onStartFailure` decides (the composition ends pacer, as Marathon exits).
 *
 * A stale election (its lease lapsed, its session cannot have expired: leader-election.ts) keeps
 * the term: the duties run on and the process serves no request until the lease is fresh again,
 * with no restart. The core meanwhile handles cluster inputs (offers, status updates) and may
 * launch or kill. That is safe: until the teardown bound, ZooKeeper still holds this session and
 * its znode, the lowest, so no other process can have been elected and this one's decisions are
 * still the only ones; past the bound the election ends the term as any loss does. The store's
 * writes stay fenced as in any term (every `multi` checks this process's znode: zk-store.ts), and
 * every cluster call waits for the writes made before it (durable-driver.ts). So an input handled
 * after the session did expire (a stall past the whole timeout, whose I/O callbacks Node may run
 * before the lease's timer: as before the stale tier) has no write land, and no call that follows
 * a write reaches the cluster.
 */
export class Leadership implements LeadershipView {
  private duties: LeaderDuties | undefined;
  private termStartedAtMs = 0;
  private waiters: (() => void)[] = [];
  private readonly terms: TermListener[] = [];
  private readonly changes: (() => void)[] = [];
  private stopped = false;
  /** Bumped at every start and end of a term: duties that arrive for an older one are stopped. */
  private term = 0;
  private starting = false;

  constructor(
    private readonly election: ElectionSource,
    private readonly advertised: () => string,
    private readonly startDuties: () => LeaderDuties | Promise<LeaderDuties>,
    private readonly onStartFailure: (error: Error) => void,
    private readonly nowMs: () => number = Date.now,
  ) {
    election.onChange((state) => this.follow(state));
  }

  get self(): string {
    return this.advertised();
  }

  /** Follows the election as it stands now (call once the listeners are in place). */
  begin(): void {
    this.follow(this.election.current);
  }

  onTerm(listener: TermListener): void {
    this.terms.push(listener);
  }

  /** Called after every change of the election, once the duties follow it. */
  onChange(listener: () => void): void {
    this.changes.push(listener);
  }

  /**
   * Whether it serves now: its duties run and its lease is fresh. The lease is checked first (a
   * stalled process must not serve on a lapsed one: leader-election.ts `checkLeaseNow`).
   */
  serving(): boolean {
    this.election.checkLeaseNow?.();
    return this.duties !== undefined && this.election.current.stale !== true;
  }

  leader(): string | undefined {
    return this.election.current.leader;
  }

  /** The running duties, or undefined on a standby. */
  current(): LeaderDuties | undefined {
    return this.duties;
  }

  /** Milliseconds since this term began (0 on a standby): `marathon.leadership.duration`. */
  termMs(): number {
    return this.duties === undefined ? 0 : this.nowMs() - this.termStartedAtMs;
  }

  nextChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  refresh(): Promise<void> {
    return this.election.refresh?.() ?? Promise.resolve();
  }

  /** DELETE /v2/leader: stop scheduling now, then let the next contender lead. */
  abdicate(): Promise<void> {
    return this.election.abdicate();
  }

  /** Stops the duties (if running) and follows no further changes. */
  stop(): void {
    this.stopped = true;
    this.end();
  }

  /** Whether duties are being started (elected, not serving yet). */
  startingTerm(): boolean {
    return this.starting;
  }

  private follow(state: ElectionState): void {
    if (!state.elected || this.stopped) this.end();
    else if (this.duties === undefined && !this.starting) this.beginTerm();
    this.changed();
  }

  private changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
    for (const listener of this.changes) listener();
  }

  private beginTerm(): void {
    const term = ++this.term;
    let started: LeaderDuties | Promise<LeaderDuties>;
    try {
      started = this.startDuties();
    } catch (err) {
      this.onStartFailure(err as Error);
      return;
    }
    if (!(started instanceof Promise)) {
      this.serve(started);
      return;
    }
    this.starting = true;
    started.then((duties) => {
      if (term !== this.term) {
        duties.stop(); // the term ended while the duties started: never served
        return;
      }
      this.starting = false;
      this.serve(duties);
      this.changed();
    }, (err: unknown) => {
      if (term !== this.term) return;
      this.starting = false;
      this.onStartFailure(err as Error);
    });
  }

  private serve(duties: LeaderDuties): void {
    this.duties = duties;
    this.termStartedAtMs = this.nowMs();
    for (const term of this.terms) term.begun(duties);
  }

  private end(): void {
    if (this.starting) {
      this.starting = false;
      this.term++;
    }
    const duties = this.duties;
    if (duties === undefined) return;
    this.term++;
    this.duties = undefined;
    try {
      duties.stop();
    } finally {
      for (const term of this.terms) term.ended();
    }
  }
}
