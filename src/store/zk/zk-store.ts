import { performance } from 'node:perf_hooks';
import { ZkError } from '../../cluster/mesos/zk/zk-error';
import { digestAcl, OPEN_ACL, ZK_CODES, ZkSession } from '../../cluster/mesos/zk/zk-session';
import { describeZkUrl, parseZkUrl, type ZkUrl } from '../../cluster/mesos/zk/zk-url';
import type { Deployment } from '../../scheduler/model/deployment';
import type { Group } from '../../scheduler/index';
import type { Instance } from '../../scheduler/model/instance';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { TaskFailure } from '../../scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredRecordKind, StoredState } from '../../scheduler/ports/store';
import { StoredRootVersions } from '../records/stored-root-versions';
import { encodeRecord, recordKeyOf, type RecordKey, type RecordValues } from '../records/record-codec';
import type { Durability } from '../durable-driver';
import { STORE_FORMAT_VERSION } from '../records/store-format-version';
import { chunksOf, formatMarker, ZkLayout } from './zk-layout';
import { type Decoded, decodeAll, prepare } from './zk-open';
import { readRecords, type ReadRecord } from './zk-record-reader';
import { type PendingWrite, ZkWriter } from './zk-writer';

/** `--zk_timeout`, `--zk_session_timeout`, and what to do when writing can never succeed again. */
export interface ZkStoreOptions {
  /** Session timeout asked of ZooKeeper (Marathon's `--zk_session_timeout`, default 10 s). */
  readonly sessionTimeoutMs: number;
  /** How long connecting, and each request, may take (Marathon's `--zk_timeout`, default 10 s). */
  readonly timeoutMs: number;
  /** The session expired or was refused: nothing more can be written (the process should stop; a restart recovers). */
  readonly onFatal?: (error: Error) => void;
  /** One line per notable thing (a write retried, chunks cleaned up). */
  readonly log?: (line: string) => void;
  /**
   * A znode every write checks (in the same `multi`): the leader's election znode (src/ha). Once it
   * is gone this store's writes fail for good (`onFatal`): a pacer that lost its leadership cannot
   * overwrite what the next leader loaded, even with writes it queued before it knew.
   */
  readonly fence?: string;
}

/**
 * The Store port on ZooKeeper (issue 16, `--zk zk://[user:pass@]host:port[,…]/path`): the same
 * records as the embedded store, in the same explicit, versioned format (records/), one znode per
 * record under the URL's path (zk-layout.ts; docs/architecture.md, "Store format").
 *
 * The port is synchronous and ZooKeeper is not, so writes are write-behind with a durability
 * promise: a port call encodes its record at once (a copy: the core may keep mutating its own),
 * queues it and returns; the queue is written in order, in `multi`s (one per ordinary change: all
 * or nothing). {@link writeSeq} counts calls, {@link whenDurable} resolves once every call up to a
 * given count is in ZooKeeper. The runtime holds every cluster call (an offer's ACCEPT above all)
 * and every API reply to a change until the writes before it are durable (durable-driver.ts,
 * durable-replies.ts): nothing is launched, and nothing acknowledged, that a restart could forget.
 *
 * A write that fails for a transient reason (connection loss) is retried with backoff until it
 * succeeds; an expired session, refused credentials, and a write that got no answer within
 * `--zk_timeout` are fatal (`onFatal`). `load()` returns what was stored when the store was opened.
 */
export class ZkStore implements Store, Durability {
  private pending: PendingWrite[] = [];
  private readonly pendingIndex = new Map<string, number>();
  private seq = 0;
  private durableSeq = 0;
  private flushing: Promise<void> | undefined;
  private readonly waiters: { readonly seq: number; readonly resolve: () => void; readonly reject: (error: Error) => void }[] = [];
  private failed: Error | undefined;
  private closed = false;
  private closing = false;
  /** The root versions stored, by object: what a deployment's record may refer to (store format 8). */
  private readonly rootVersions = new StoredRootVersions();

  private constructor(
    private readonly session: ZkSession,
    private readonly layout: ZkLayout,
    private readonly writer: ZkWriter,
    private readonly options: ZkStoreOptions,
    private readonly loaded: StoredState,
    /** Where the store is, credentials hidden (logs, errors). */
    readonly where: string,
  ) {
    this.rootVersions.loaded(loaded.rootVersions);
    session.onState((state) => {
      if (state === 'expired') this.fail(new Error(`the ZooKeeper session to ${where} expired: pacer cannot write its state any more`));
    });
  }

  /**
   * Connects, creates the path (and the store's znodes) on first use, refuses a path that holds
   * something else or a newer format (nothing is written then), migrates an older format, and
   * reads every record. A record that cannot be loaded is set aside (reported in `load().setAside`).
   */
  static async open(zk: string | ZkUrl, options: ZkStoreOptions): Promise<ZkStore> {
    const url = typeof zk === 'string' ? parseZkUrl(zk) : zk;
    const where = describeZkUrl(url);
    const session = await ZkSession.open(url, { sessionTimeoutMs: options.sessionTimeoutMs, connectTimeoutMs: options.timeoutMs, requestTimeoutMs: options.timeoutMs });
    try {
      const acl = url.digest === undefined ? OPEN_ACL : digestAcl(url.digest.user, url.digest.password);
      const layout = new ZkLayout(url.path === '/' ? '' : url.path);
      const format = await prepare(session, layout, acl, where);
      const records = await readRecords(session, layout);
      const writer = new ZkWriter(session, layout, acl, new Map(records.map((r) => [r.path, r.chunks])), Date.now(), options.fence);
      const decoded = decodeAll(records, format);
      const store = new ZkStore(session, layout, writer, options, decoded.state, where);
      await store.finishOpen(records, decoded, format);
      return store;
    } catch (err) {
      session.close();
      throw err;
    }
  }

  /** Migrated records written back and the marker bumped; records that failed set aside; unused chunks removed. */
  private async finishOpen(records: readonly ReadRecord[], decoded: Decoded, format: number): Promise<void> {
    for (const m of decoded.migrated) this.enqueue({ type: 'put', ...m });
    for (const r of decoded.state.setAside ?? []) this.setAside(r);
    await this.whenDurable();
    if (format < STORE_FORMAT_VERSION) await this.session.setData(this.layout.format, formatMarker(STORE_FORMAT_VERSION));
    await this.removeUnusedChunks(records);
  }

  saveRoot(root: Group): void {
    this.put('root', root);
  }

  saveRunSpec(spec: RunSpec): void {
    this.put('runSpec', spec);
  }

  deleteRunSpec(runSpecId: string): void {
    this.enqueue({ type: 'delete', kind: 'runSpec', at: { key: runSpecId } });
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.put('runSpecVersion', spec);
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.enqueue({ type: 'delete', kind: 'runSpecVersion', at: { key: runSpecId, version } });
  }

  saveRootVersion(root: Group): void {
    this.put('rootVersion', root);
    this.rootVersions.saved(root);
  }

  deleteRootVersion(version: string): void {
    this.rootVersions.deleted(version);
    this.enqueue({ type: 'delete', kind: 'rootVersion', at: { key: version } });
  }

  saveDeployment(deployment: Deployment): void {
    this.put('deployment', deployment);
  }

  deleteDeployment(deploymentId: string): void {
    this.enqueue({ type: 'delete', kind: 'deployment', at: { key: deploymentId } });
  }

  saveInstances(instances: readonly Instance[]): void {
    for (const inst of instances) this.put('instance', inst);
  }

  deleteInstance(instanceId: string): void {
    this.enqueue({ type: 'delete', kind: 'instance', at: { key: instanceId } });
  }

  saveFrameworkId(frameworkId: string): void {
    this.put('frameworkId', frameworkId);
  }
  saveTaskFailure(failure: TaskFailure): void {
    this.put('taskFailure', failure);
  }

  deleteTaskFailure(runSpecId: string): void {
    this.enqueue({ type: 'delete', kind: 'taskFailure', at: { key: runSpecId } });
  }


  /** Moves the record to `set-aside/` with `reason` and the time (zk-writer.ts). */
  setAside(record: SetAsideRecord): void {
    if (record.kind === 'rootVersion') this.rootVersions.deleted(record.key);
    this.enqueue({ type: 'setAside', record, atIso: new Date().toISOString() });
  }

  /** What was stored when the store was opened (the core loads once, at construction). */
  load(): StoredState {
    return this.loaded;
  }

  /**
   * Writes `text` as the stored text of a record as it is, unchecked (migrations, and tests that
   * write a fixture exactly as stored). Durable like any other write.
   */
  putRecordText(kind: StoredRecordKind, at: RecordKey, text: string): void {
    this.enqueue({ type: 'put', kind, at, text });
  }

  /** The writes of `fn` are queued together (ZooKeeper has no open transactions: they are written in one `multi` where the size allows). */
  atomically<T>(fn: () => T): T {
    return fn();
  }

  /** This store writes behind: the runtime makes the cluster and API replies wait for it (durable-driver.ts). */
  get durability(): Durability {
    return this;
  }

  /** How many writes were asked for so far. */
  get writeSeq(): number {
    return this.seq;
  }

  /** Whether writes are asked for and not yet durable. */
  hasPendingWrites(): boolean {
    return this.durableSeq < this.seq;
  }

  /** Resolves once the first `seq` writes (default: all so far) are in ZooKeeper; rejects after a fatal error (they never will be). */
  whenDurable(seq = this.seq): Promise<void> {
    if (this.durableSeq >= seq) return Promise.resolve();
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /**
   * Writes what is queued (for at most `waitMs`, default `--zk_timeout`), then ends the session;
   * what is still not written then is dropped (nothing was acted on that is not durable: no
   * cluster call, no reply). Writes asked for after the call are refused.
   */
  async closeAsync(waitMs = this.options.timeoutMs): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.failed === undefined && this.hasPendingWrites()) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.whenDurable().catch(() => undefined),
        new Promise<void>((resolve) => { timer = setTimeout(resolve, waitMs); }),
      ]);
      clearTimeout(timer);
    }
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error(`the ZooKeeper store at ${this.where} closed before this write was durable`));
    this.session.close();
  }

  /** {@link closeAsync} without waiting (the Store owner's synchronous release). */
  close(): void {
    void this.closeAsync();
  }

  private put<K extends StoredRecordKind>(kind: K, value: RecordValues[K]): void {
    this.enqueue({ type: 'put', kind, at: recordKeyOf(kind, value), text: encodeRecord(kind, value, this.rootVersions) });
  }

  /** Queues a write; a put or delete replaces a queued one of the same record (unless a set-aside of it came between). */
  private enqueue(write: PendingWrite): void {
    if (this.closing) throw new Error(`the ZooKeeper store at ${this.where} is closed`);
    this.seq++;
    if (write.type === 'setAside') {
      // Later writes of this record must come after the move, not replace a write queued before it.
      this.pendingIndex.delete(this.layout.record(write.record.kind, write.record));
      this.pending.push(write);
    } else {
      const path = this.layout.record(write.kind, write.at);
      const queued = this.pendingIndex.get(path);
      if (queued !== undefined) this.pending[queued] = write;
      else this.pendingIndex.set(path, this.pending.push(write) - 1);
    }
    this.flushing ??= this.flush();
  }

  private async flush(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0 && this.failed === undefined) {
      const batch = this.pending;
      const upTo = this.seq;
      this.pending = [];
      this.pendingIndex.clear();
      if (!(await this.writeRetrying(batch))) break;
      this.durableSeq = upTo;
      for (const w of this.waiters.filter((x) => x.seq <= upTo)) w.resolve();
      this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((x) => x.seq > upTo));
    }
    this.flushing = undefined;
  }

  /**
   * Writes `batch`, retrying transient failures with backoff (1 s … 10 s); false after a fatal
   * error. An attempt that failed after `--zk_timeout` (no answer in time: ZooKeeper, or the way to
   * it, is silent or too slow) is fatal too: the leader must not keep scheduling on a store it
   * cannot write — every cluster call and reply waits on these writes — so the store fails
   * (`onFatal`: with `--zk` the leader abdicates, src/ha/start-ha.ts) and the next term opens a new
   * session. A write failing fast (the connection closed and is being re-opened) is retried.
   */
  private async writeRetrying(batch: readonly PendingWrite[]): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const startedMs = performance.now();
      try {
        if (attempt > 0) await this.writer.resync(batch);
        // The whole write within --zk_timeout: it may be several requests (a read, then the
        // transactions), each bounded by it alone, so a silent connection could hold one write for
        // twice the bound and more (seen in CI: 16 s with an 8 s --zk_timeout).
        await withinTimeout(this.writer.write(batch), this.options.timeoutMs);
        if (attempt > 0) this.options.log?.(`ZooKeeper store ${this.where}: written after ${attempt} retries`);
        return true;
      } catch (err) {
        if (isFatal(err)) {
          this.fail(err as Error);
          return false;
        }
        if (this.timedOut(startedMs, err)) return false;
        // The fence's check is part of the attempt, bounded by what is left of --zk_timeout: on a
        // silent connection it would otherwise wait for the session's end, and the leader would
        // keep its term that long.
        if (this.options.fence !== undefined) {
          const leftMs = Math.max(0, this.options.timeoutMs - (performance.now() - startedMs));
          // undefined: no answer (an error, or none in time), so the fence may still be held.
          const held = await withinTimeout(this.session.exists(this.options.fence), leftMs).catch(() => undefined);
          if (held === undefined && this.timedOut(startedMs, err)) return false;
          if (held === false) {
            this.fail(new Error(`ZooKeeper store ${this.where}: ${this.options.fence} is gone (this pacer no longer leads); its writes are refused`));
            return false;
          }
        }
        if (this.closed) return false;
        if (attempt === 0) this.options.log?.(`ZooKeeper store ${this.where}: a write failed (${(err as Error).message}); retrying`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 1_000 * 2 ** Math.min(attempt, 4))));
        if (this.failed !== undefined) return false;
      }
    }
  }

  /**
   * Whether the attempt begun at `startedMs` has had --zk_timeout: then the store fails (a
   * ZkError: while a new leader opens the store, it gives up this term and joins again,
   * start-ha.ts) and the write is not retried.
   */
  private timedOut(startedMs: number, err: unknown): boolean {
    if (performance.now() - startedMs < this.options.timeoutMs) return false;
    const why = err instanceof Error ? err.message : String(err);
    this.fail(new ZkError('CONNECTION_LOSS', `ZooKeeper store ${this.where}: a write got no answer within --zk_timeout (${this.options.timeoutMs} ms): ${why}`));
    return true;
  }

  private fail(error: Error): void {
    if (this.failed !== undefined || this.closed) return;
    this.failed = error;
    for (const w of this.waiters.splice(0)) w.reject(error);
    (this.options.onFatal ?? ((e) => this.options.log?.(e.message)))(error);
  }

  /** Chunks no record or set-aside entry refers to (left by a write that did not finish) are removed. */
  private async removeUnusedChunks(records: readonly ReadRecord[]): Promise<void> {
    const used = new Set([...records.flatMap((r) => r.chunks), ...await this.setAsideChunks()]);
    const unused = (await this.session.getChildren(this.layout.chunks)).filter((c) => !used.has(c));
    for (const c of unused) await this.session.delete(this.layout.chunk(c)).catch(() => undefined);
    if (unused.length > 0) this.options.log?.(`ZooKeeper store ${this.where}: removed ${unused.length} unused chunk(s)`);
  }

  private async setAsideChunks(): Promise<string[]> {
    const out: string[] = [];
    for (const name of await this.session.getChildren(this.layout.setAside)) {
      const data = await this.session.getData(`${this.layout.setAside}/${name}`);
      try {
        const entry = JSON.parse(data.toString('utf8')) as { data?: string };
        out.push(...chunksOf(Buffer.from(entry.data ?? '', 'base64')));
      } catch {
        // Not an entry this store wrote: it refers to no chunk.
      }
    }
    return out;
  }
}

function isFatal(err: unknown): boolean {
  return err instanceof ZkError && (err.kind === 'SESSION_EXPIRED' || err.kind === 'CLOSED' || err.kind === 'AUTH_FAILED' || err.serverCode === ZK_CODES.NOAUTH);
}

/**
 * `work`, or a CONNECTION_LOSS ZkError once `timeoutMs` passed without it settling (`work` goes on
 * in the background, its outcome ignored: a write of a store that failed is fenced off anyway).
 */
function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ZkError('CONNECTION_LOSS', `no answer within ${timeoutMs} ms`)), timeoutMs);
    work.then((value) => {
      clearTimeout(timer);
      resolve(value);
    }, (err: unknown) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
