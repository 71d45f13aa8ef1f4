import type { MasterDetector } from '../master-detector';
import { JSON_INFO_PREFIX, leaderZnode, PROTOBUF_INFO_PREFIX } from './leader-znode';
import { masterUrlFromInfo } from './master-url-from-info';
import { ZkError } from './zk-error';
import { ZK_CODES, ZkSession, type ZkReader, type ZkSessionOptions } from './zk-session';
import type { ZkUrl } from './zk-url';
import { describeZkUrl, parseZkUrl } from './zk-url';

/** Tuning of a ZkMasterDetector; every field has a default. */
export interface ZkMasterDetectorOptions extends Partial<ZkSessionOptions> {
  /** Scheme of the returned URL; MasterInfo does not say whether the master serves TLS. */
  readonly scheme?: 'http' | 'https';
  /**
   * Reads of the group before giving up when the leader's znode vanishes between listing it and
   * reading it (an election in progress). Default 3.
   */
  readonly maxElectionRetries?: number;
  /** Opens the ZooKeeper session (tests pass an in-memory one). Default {@link ZkSession.open}. */
  readonly openSession?: (url: ZkUrl, options: ZkSessionOptions) => Promise<ZkReader>;
}

/** Defaults sized for finding a leader at start-up and on every resubscription. */
export const DEFAULT_ZK_SESSION_OPTIONS: ZkSessionOptions = { sessionTimeoutMs: 10_000, connectTimeoutMs: 5_000, requestTimeoutMs: 5_000 };

/**
 * `--master zk://[user:pass@]h1:2181[,h2:2181…]/mesos`: finds the leading Mesos master the way
 * Mesos' own detector does (apache/mesos src/master/detector/zookeeper.cpp, spec §1.9) and keeps
 * following it. It lists the group znode's children with a watch, takes the `json.info_<sequence>`
 * child with the lowest sequence, reads its MasterInfo JSON with a watch and remembers the
 * master's URL. `leader()` answers from memory while both watches stand; when one fires (a master
 * joined or left the group, the leader's data changed) the answer is forgotten and the group read
 * again at once, and `onChange` listeners hear of a new leader — so a driver learns of a failover
 * from ZooKeeper even while the old master's stream still looks open.
 *
 * A disconnected session forgets the answer (a watch may be missed meanwhile); an expired one is
 * replaced by a new session on the next read. The constructor throws ZkError `BAD_URL` for a URL
 * that does not parse. `leader()` rejects with ZkError `UNREACHABLE`/`CONNECTION_LOSS` (no
 * ZooKeeper server answered), `NO_MASTER` (no master registered; the driver backs off and asks
 * again), `MALFORMED_MASTER_INFO`, `AUTH_FAILED`, `SESSION_EXPIRED` or `CLOSED`.
 */
export class ZkMasterDetector implements MasterDetector {
  private readonly url: ZkUrl;
  private readonly scheme: 'http' | 'https';
  private readonly maxElectionRetries: number;
  private readonly sessionOptions: ZkSessionOptions;
  private readonly openSession: (url: ZkUrl, options: ZkSessionOptions) => Promise<ZkReader>;
  private readonly listeners: ((leaderUrl: string) => void)[] = [];
  private readonly troubleListeners: ((message: string) => void)[] = [];
  private session: Promise<ZkReader> | undefined;
  /** The leader as of the standing watches; undefined when it must be read again. */
  private known: string | undefined;
  private lastReported: string | undefined;
  private reading: Promise<string> | undefined;
  /** Bumped whenever the remembered answer becomes stale, so a read under way does not store it. */
  private epoch = 0;
  /** Whether a watch on the group's children stands (ZooKeeper keeps one-shot watches until they fire). */
  private groupWatched = false;
  /** Leader znodes with a data watch standing: one watch per znode, however often the group is read. */
  private readonly dataWatched = new Set<string>();
  /**
   * A watch fired while a read was under way: the group is read again once that read ends. The read
   * under way may have listed the group before the change, and the group watch that fired may be
   * the one it counted on (it set none of its own), so joining it would leave no watch standing.
   */
  private rereadPending = false;
  private closed = false;

  constructor(zkUrl: string, options: ZkMasterDetectorOptions = {}) {
    this.url = parseZkUrl(zkUrl);
    const { scheme, maxElectionRetries, openSession, ...sessionOptions } = options;
    this.sessionOptions = { ...DEFAULT_ZK_SESSION_OPTIONS, ...sessionOptions };
    this.scheme = scheme ?? 'http';
    this.maxElectionRetries = maxElectionRetries ?? 3;
    this.openSession = openSession ?? ((url, opts) => ZkSession.open(url, opts));
  }

  /** `http://host:port` of the current leading master: remembered while the watches stand, else read. */
  leader(): Promise<string> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.known !== undefined) return Promise.resolve(this.known);
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
      if (!this.rereadPending) return;
      this.rereadPending = false;
      this.changed();
    });
    return this.reading;
  }

  /** `listener` hears every new leader the watches find (not the first one `leader()` returns). */
  onChange(listener: (leaderUrl: string) => void): void {
    this.listeners.push(listener);
  }

  /** `listener` hears why a read made after a watch fired found no usable leader (see MasterDetector). */
  onTrouble(listener: (message: string) => void): void {
    this.troubleListeners.push(listener);
  }

  /** Ends the ZooKeeper session; later calls reject with CLOSED. */
  close(): void {
    this.closed = true;
    this.forget();
    void this.session?.then((s) => s.close(), () => undefined);
    this.session = undefined;
  }

  private async read(): Promise<string> {
    const session = await this.currentSession();
    const epoch = this.epoch; // a watch firing from here on makes this read's answer stale
    for (let attempt = 0; attempt < this.maxElectionRetries; attempt += 1) {
      const znode = await this.leaderZnodePath(session);
      const data = await session.getData(znode, this.dataWatch(znode)).catch((error: unknown) => {
        this.dataWatched.delete(znode); // a read of an absent znode sets no watch
        return absentAs(undefined)(error);
      });
      if (data === undefined) continue;
      const leaderUrl = masterUrlFromInfo(data, znode, this.scheme);
      if (epoch === this.epoch && !this.closed) this.known = leaderUrl;
      this.report(leaderUrl);
      return leaderUrl;
    }
    throw new ZkError('NO_MASTER', `the leading Mesos master's znode under ${describeZkUrl(this.url)} kept vanishing (election in progress?)`);
  }

  /** The full path of the leader's znode (children read with a watch); NO_MASTER when the group is absent or empty. */
  private async leaderZnodePath(session: ZkReader): Promise<string> {
    const watch = this.groupWatched ? undefined : (): void => {
      this.groupWatched = false;
      this.changed();
    };
    this.groupWatched = true;
    const children = await session.getChildren(this.url.path, watch).catch((error: unknown) => {
      if (watch !== undefined) this.groupWatched = false; // no watch is set on a failed read
      return absentAs(null)(error);
    });
    if (children === null) throw this.noMaster(`the znode ${this.url.path} does not exist`);
    const leader = leaderZnode(children);
    if (leader === undefined) throw this.noMaster(this.whyNoLeader(children));
    return this.url.path === '/' ? `/${leader}` : `${this.url.path}/${leader}`;
  }

  /** A data watch for `znode`, unless one already stands. */
  private dataWatch(znode: string): (() => void) | undefined {
    if (this.dataWatched.has(znode)) return undefined;
    this.dataWatched.add(znode);
    return () => {
      this.dataWatched.delete(znode);
      this.changed();
    };
  }

  /**
   * A watch fired: forget the answer and read the group again now (which sets new watches), or,
   * when a read is under way, once it ends (`rereadPending`): joining it lost the group watch when
   * its notification came while that read waited for its answer (a real server's can), and with
   * no leader found then (an empty group, a malformed MasterInfo) no watch at all stood, so a
   * master joining later was never heard of while the driver stayed subscribed.
   */
  private changed(): void {
    if (this.closed) return;
    this.forget();
    if (this.reading !== undefined) {
      this.rereadPending = true;
      return;
    }
    this.leader().catch((error: unknown) => {
      // The driver's own leader() calls see their failures; this read's are said to the listeners.
      if (this.closed) return;
      const message = error instanceof Error ? error.message : String(error);
      for (const listener of this.troubleListeners) listener(message);
    });
  }

  private forget(): void {
    this.epoch += 1;
    this.known = undefined;
  }

  private report(leaderUrl: string): void {
    const previous = this.lastReported;
    this.lastReported = leaderUrl;
    if (previous === undefined || previous === leaderUrl) return;
    for (const listener of this.listeners) listener(leaderUrl);
  }

  /** The open session, or a new one (after an expiry or a failed open). */
  private currentSession(): Promise<ZkReader> {
    if (this.session !== undefined) return this.session;
    const opening = this.openSession(this.url, this.sessionOptions).then((session) => {
      if (this.closed) {
        session.close();
        throw this.closedError();
      }
      session.onState((state) => {
        if (state === 'connected') return;
        this.forget(); // a watch may fire unseen while disconnected; the library sets them again on reconnection
        if (state !== 'expired' || this.session !== opening) return;
        this.session = undefined; // an expired session's watches are gone with it
        this.groupWatched = false;
        this.dataWatched.clear();
      });
      return session;
    });
    this.session = opening;
    opening.catch(() => {
      if (this.session === opening) this.session = undefined;
    });
    return opening;
  }

  private whyNoLeader(children: readonly string[]): string {
    if (children.some((name) => name.startsWith(PROTOBUF_INFO_PREFIX))) {
      return `only protobuf ${PROTOBUF_INFO_PREFIX}* znodes are registered (masters older than Mesos 0.24 are not supported; ${JSON_INFO_PREFIX}* is needed)`;
    }
    return `no ${JSON_INFO_PREFIX}* znode under ${this.url.path}`;
  }

  private noMaster(reason: string): ZkError {
    return new ZkError('NO_MASTER', `no Mesos master is registered in ${describeZkUrl(this.url)}: ${reason}`);
  }

  private closedError(): ZkError {
    return new ZkError('CLOSED', `the master detector for ${describeZkUrl(this.url)} is closed`);
  }
}

/** A `.catch` handler that maps ZooKeeper's NONODE to `value` and rethrows anything else. */
function absentAs<T>(value: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof ZkError && error.serverCode === ZK_CODES.NONODE) return value;
    throw error;
  };
}
