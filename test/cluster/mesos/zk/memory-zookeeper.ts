import { ZkError } from '../../../../src/cluster/mesos/zk/zk-error';
import { ZK_CODES, type ZkReader, type ZkSessionState, type ZkWatcher } from '../../../../src/cluster/mesos/zk/zk-session';

/**
 * An in-memory ZooKeeper for detector tests: znodes by full path, one-shot watches that fire as
 * ZooKeeper fires them (children of a parent when a child comes or goes; a znode's data watch when
 * it changes or goes), sessions that can be disconnected or expired, and a log of every read.
 */
export class MemoryZooKeeper {
  readonly znodes = new Map<string, Buffer>();
  /** Every read, as `getChildren /path` or `getData /path`, in order. */
  readonly reads: string[] = [];
  /** Sessions opened so far. */
  readonly sessions: MemorySession[] = [];
  /** Called before a getData is answered (lets a test make a znode vanish mid-election). */
  beforeGetData: ((path: string) => void) | undefined;
  /**
   * Called before a getChildren is answered: lets a test change the group, and so deliver a watch
   * notification, while a read waits for its answer (a real server's notification can come then).
   */
  beforeGetChildren: ((path: string) => void) | undefined;
  /** The next opens fail with this error. */
  readonly openFailures: ZkError[] = [];
  private readonly childWatches = new Map<string, ZkWatcher[]>();
  private readonly dataWatches = new Map<string, ZkWatcher[]>();

  constructor(znodes: Record<string, string> = {}) {
    for (const [path, data] of Object.entries(znodes)) this.znodes.set(path, Buffer.from(data));
  }

  /** What `ZkMasterDetectorOptions.openSession` is given. */
  readonly open = (): Promise<ZkReader> => {
    const failure = this.openFailures.shift();
    if (failure !== undefined) return Promise.reject(failure);
    const session = new MemorySession(this);
    this.sessions.push(session);
    return Promise.resolve(session);
  };

  /** Adds or replaces a znode, firing the parent's child watches (new node) or its data watches. */
  set(path: string, data: string): void {
    const existed = this.znodes.has(path);
    this.znodes.set(path, Buffer.from(data));
    this.fire(existed ? this.dataWatches : this.childWatches, existed ? path : parentOf(path), existed ? 'dataChanged' : 'childrenChanged');
  }

  /** Removes a znode, firing its data watches and its parent's child watches. */
  remove(path: string): void {
    if (!this.znodes.delete(path)) return;
    this.fire(this.dataWatches, path, 'deleted');
    this.fire(this.childWatches, parentOf(path), 'childrenChanged');
  }

  /** @internal */
  children(path: string, watch: ZkWatcher | undefined): string[] {
    this.reads.push(`getChildren ${path}`);
    this.beforeGetChildren?.(path);
    const prefix = path === '/' ? '/' : `${path}/`;
    const below = [...this.znodes.keys()].filter((p) => p.startsWith(prefix));
    const names = [...new Set(below.map((p) => p.slice(prefix.length).split('/')[0]!))];
    const exists = path === '/' || this.znodes.has(path) || below.length > 0; // parents exist implicitly
    if (!exists) throw new ZkError('SERVER', `getChildren ${path}: NO_NODE`, ZK_CODES.NONODE);
    if (watch !== undefined) add(this.childWatches, path, watch);
    return names;
  }

  /** @internal */
  data(path: string, watch: ZkWatcher | undefined): Buffer {
    this.reads.push(`getData ${path}`);
    this.beforeGetData?.(path);
    const data = this.znodes.get(path);
    if (data === undefined) throw new ZkError('SERVER', `getData ${path}: NO_NODE`, ZK_CODES.NONODE);
    if (watch !== undefined) add(this.dataWatches, path, watch);
    return data;
  }

  /** Watches standing now (both kinds). */
  get watchCount(): number {
    let n = 0;
    for (const list of [...this.childWatches.values(), ...this.dataWatches.values()]) n += list.length;
    return n;
  }

  private fire(watches: Map<string, ZkWatcher[]>, path: string, type: 'childrenChanged' | 'dataChanged' | 'deleted'): void {
    const list = watches.get(path) ?? [];
    watches.delete(path);
    for (const watch of list) watch({ type, path });
  }
}

/** One session of a {@link MemoryZooKeeper}. */
export class MemorySession implements ZkReader {
  closed = false;
  private expired = false;
  private readonly listeners: ((state: ZkSessionState) => void)[] = [];

  constructor(private readonly zk: MemoryZooKeeper) {}

  getChildren(path: string, watch?: ZkWatcher): Promise<string[]> {
    return this.run(() => this.zk.children(path, watch));
  }

  getData(path: string, watch?: ZkWatcher): Promise<Buffer> {
    return this.run(() => this.zk.data(path, watch));
  }

  onState(listener: (state: ZkSessionState) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.closed = true;
  }

  /** The session lost (`disconnected`), regained (`connected`) its server, or ended (`expired`). */
  emit(state: ZkSessionState): void {
    if (state === 'expired') this.expired = true;
    for (const listener of this.listeners) listener(state);
  }

  private run<T>(read: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new ZkError('CLOSED', 'closed'));
    if (this.expired) return Promise.reject(new ZkError('SESSION_EXPIRED', 'expired'));
    try {
      return Promise.resolve(read());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function add(map: Map<string, ZkWatcher[]>, path: string, watch: ZkWatcher): void {
  const list = map.get(path) ?? [];
  list.push(watch);
  map.set(path, list);
}
