import { createHash } from 'node:crypto';
import { Socket } from 'node:net';
import * as zookeeper from 'node-zookeeper-client';
import { ZkError } from './zk-error';
import { describeZkUrl, unsupportedZkUrlProblem, type ZkUrl } from './zk-url';

/** What a watch reports: the znode it was set on and what happened to it. */
export interface ZkWatchEvent {
  readonly type: 'created' | 'deleted' | 'dataChanged' | 'childrenChanged';
  readonly path: string;
}

/** A one-shot watch (ZooKeeper's rule: it fires at most once; set it again to keep watching). */
export type ZkWatcher = (event: ZkWatchEvent) => void;

/** How a session changed: lost its server (requests wait, watches are kept), found one again, or ended for good. */
export type ZkSessionState = 'disconnected' | 'connected' | 'expired';

/** The read side of a session: what leader detection needs (and what a test fake implements). */
export interface ZkReader {
  /** The names (not paths) of `path`'s children; `watch` fires once when they change. NONODE: ZkError `SERVER`. */
  getChildren(path: string, watch?: ZkWatcher): Promise<string[]>;
  /** The znode's data; `watch` fires once when it changes or the znode goes. NONODE: ZkError `SERVER`. */
  getData(path: string, watch?: ZkWatcher): Promise<Buffer>;
  /** Called on every state change of the session. */
  onState(listener: (state: ZkSessionState) => void): void;
  /** Ends the session (its ephemeral znodes go). Idempotent. */
  close(): void;
}

/** How a znode is created. */
export type ZkCreateMode = 'persistent' | 'persistentSequential' | 'ephemeral' | 'ephemeralSequential';

/** One operation of an atomic {@link ZkSession.transaction} (ZooKeeper's `multi`). */
export type ZkOp =
  | { readonly op: 'create'; readonly path: string; readonly data?: Buffer; readonly mode?: ZkCreateMode; readonly acl?: readonly zookeeper.ACL[] }
  | { readonly op: 'setData'; readonly path: string; readonly data: Buffer; readonly version?: number }
  | { readonly op: 'delete'; readonly path: string; readonly version?: number }
  | { readonly op: 'check'; readonly path: string; readonly version: number };

/** Session tuning. */
export interface ZkSessionOptions {
  /** The session timeout asked of the server (it may negotiate it into its min..max, 2..20 ticks by default). */
  readonly sessionTimeoutMs: number;
  /** How long {@link ZkSession.open} waits for a server to accept the session. */
  readonly connectTimeoutMs: number;
  /** How long one request may wait for its answer (also while the session looks for a server). */
  readonly requestTimeoutMs: number;
}

/** ZooKeeper's `Perms.ALL`. */
const PERMS_ALL = 31;

/** KeeperException codes used by callers (ZooKeeper's `KeeperException.Code`). */
export const ZK_CODES = { NONODE: -101, NOAUTH: -102, BADVERSION: -103, NODEEXISTS: -110, NOTEMPTY: -111 } as const;

const CREATE_MODES: Readonly<Record<ZkCreateMode, number>> = {
  persistent: zookeeper.CreateMode.PERSISTENT,
  persistentSequential: zookeeper.CreateMode.PERSISTENT_SEQUENTIAL,
  ephemeral: zookeeper.CreateMode.EPHEMERAL,
  ephemeralSequential: zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL,
};

const WATCH_TYPES: Readonly<Record<number, ZkWatchEvent['type']>> = {
  [zookeeper.Event.NODE_CREATED]: 'created',
  [zookeeper.Event.NODE_DELETED]: 'deleted',
  [zookeeper.Event.NODE_DATA_CHANGED]: 'dataChanged',
  [zookeeper.Event.NODE_CHILDREN_CHANGED]: 'childrenChanged',
};

/**
 * pacer's one ZooKeeper session: a small promise API over `node-zookeeper-client` (pure
 * JavaScript, maintained, with ZooKeeper's `multi`), holding what the rest of pacer needs — Mesos
 * leader detection today, pacer's own leader election and ZooKeeper store later (issue 16):
 * reads with one-shot watches, create (ephemeral and sequential modes, open or digest ACLs),
 * exists, setData, delete, atomic transactions, and digest authentication (`zk://user:pass@…`,
 * sent when the session starts and again on every reconnection).
 *
 * The library keeps the session across servers of the ensemble by itself (requests wait while it
 * reconnects; watches are re-registered); this wrapper adds bounded waits — `open` fails with
 * `UNREACHABLE` after `connectTimeoutMs`, every request with `CONNECTION_LOSS` after
 * `requestTimeoutMs` — and turns the library's errors into {@link ZkError}s: `SERVER` with the
 * KeeperException code (`serverCode`, see {@link ZK_CODES}), `AUTH_FAILED`, `SESSION_EXPIRED`,
 * `CONNECTION_LOSS`, `CLOSED`. An expired session stays dead (`onState('expired')`): open a new one.
 *
 * A session that stays disconnected for a whole session timeout is expired here, by the client,
 * as Curator does (Marathon's client: its "session expired" after a connection loss longer than
 * the negotiated timeout). The server would have expired it by then unless it was itself down,
 * and the library can otherwise wait forever: node-zookeeper-client 1.1.3 clears its connect
 * timer once the TCP connection is up and arms its read timer only once the handshake is
 * answered, so a server that accepts the connection but never reads the handshake (seen with
 * ZooKeeper 3.8 restarting: the request left unread in its receive queue) leaves the session
 * "connecting" with no further event. Expiring it lets the owner open a new session, whose
 * {@link ZkSession.open} is bounded by `connectTimeoutMs`.
 */
export class ZkSession implements ZkReader {
  private closed = false;
  private expired = false;
  /** Running while the session is disconnected: fires after a whole session timeout of it. */
  private lossClock: NodeJS.Timeout | undefined;
  private readonly listeners: ((state: ZkSessionState) => void)[] = [];

  private constructor(private readonly client: zookeeper.Client, private readonly url: ZkUrl, private readonly options: ZkSessionOptions) {
    client.on('disconnected', () => {
      this.startLossClock();
      this.emit('disconnected');
    });
    client.on('connected', () => {
      this.stopLossClock();
      this.emit('connected');
    });
    client.on('expired', () => this.expire());
  }

  /**
   * Opens a session on one of the URL's servers (the library tries them in random order).
   * Rejects with ZkError `BAD_URL` (IPv6 addresses, which the library cannot parse), `AUTH_FAILED`,
   * or `UNREACHABLE` when no server accepted a session within `connectTimeoutMs`.
   */
  static open(url: ZkUrl, options: ZkSessionOptions): Promise<ZkSession> {
    const unsupported = unsupportedZkUrlProblem(url);
    if (unsupported !== undefined) return Promise.reject(new ZkError('BAD_URL', unsupported));
    const connection = url.servers.map((s) => `${s.host}:${s.port}`).join(',');
    const client = zookeeper.createClient(connection, { sessionTimeout: options.sessionTimeoutMs, spinDelay: 200, retries: 0 });
    if (url.digest !== undefined) client.addAuthInfo('digest', Buffer.from(`${url.digest.user}:${url.digest.password}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new ZkError('UNREACHABLE', `no ZooKeeper server of ${describeZkUrl(url)} accepted a session within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
      // Only these two listeners go once the session is open: `removeAllListeners()` also removed
      // the library's own `state` listener, which turns states into `disconnected`/`expired`
      // events, so a session never reported losing its server or expiring.
      const onAuthFailed = (): void => fail(new ZkError('AUTH_FAILED', `ZooKeeper at ${describeZkUrl(url)} rejected the digest credentials`));
      const onConnected = (): void => {
        clearTimeout(timer);
        client.off('authenticationFailed', onAuthFailed);
        resolve(new ZkSession(client, url, options));
      };
      const fail = (error: ZkError): void => {
        clearTimeout(timer);
        client.off('authenticationFailed', onAuthFailed);
        client.off('connected', onConnected);
        client.close();
        // A server that accepted the connection and never answered the handshake (a ZooKeeper
        // starting, or stopped) left the socket open for the life of the process: an HA pacer
        // whose rejoin had failed so kept a connection to ZooKeeper, and did not exit on SIGTERM.
        abandonSocket(client);
        reject(error);
      };
      client.once('authenticationFailed', onAuthFailed);
      client.once('connected', onConnected);
      client.connect();
    });
  }

  /** The session timeout the server granted (ms). */
  get sessionTimeoutMs(): number {
    return this.client.getSessionTimeout();
  }

  /** The session id as ZooKeeper prints it (hex). */
  get sessionId(): string {
    return this.client.getSessionId().toString('hex');
  }

  onState(listener: (state: ZkSessionState) => void): void {
    this.listeners.push(listener);
  }

  getChildren(path: string, watch?: ZkWatcher): Promise<string[]> {
    return this.call(`getChildren ${path}`, (done) => {
      if (watch === undefined) this.client.getChildren(path, (e, children) => done(e, children));
      else this.client.getChildren(path, watcherOf(watch), (e, children) => done(e, children));
    });
  }

  getData(path: string, watch?: ZkWatcher): Promise<Buffer> {
    return this.call(`getData ${path}`, (done) => {
      const cb = (e: Error | zookeeper.Exception | null, data: Buffer | undefined): void => done(e, data ?? Buffer.alloc(0));
      if (watch === undefined) this.client.getData(path, cb);
      else this.client.getData(path, watcherOf(watch), cb);
    });
  }

  /** Whether the znode exists; `watch` fires once when it is created, changed or deleted. */
  exists(path: string, watch?: ZkWatcher): Promise<boolean> {
    return this.call(`exists ${path}`, (done) => {
      const cb = (e: Error | zookeeper.Exception | null, stat: zookeeper.Stat | null | undefined): void => done(e, stat !== null && stat !== undefined);
      if (watch === undefined) this.client.exists(path, cb);
      else this.client.exists(path, watcherOf(watch), cb);
    });
  }

  /**
   * Creates a znode and resolves with its path (with the server's 10-digit suffix for sequential
   * modes). `acl` defaults to open (`world:anyone`, all permissions); see {@link digestAcl}.
   */
  create(path: string, data: Buffer, mode: ZkCreateMode = 'persistent', acl: readonly zookeeper.ACL[] = OPEN_ACL): Promise<string> {
    return this.call(`create ${path}`, (done) => this.client.create(path, data, [...acl], CREATE_MODES[mode], (e, created) => done(e, created)));
  }

  /** Replaces a znode's data if its version is `version` (-1: any). */
  setData(path: string, data: Buffer, version = -1): Promise<void> {
    return this.call(`setData ${path}`, (done) => this.client.setData(path, data, version, (e) => done(e, undefined)));
  }

  /** Deletes a znode if its version is `version` (-1: any). */
  delete(path: string, version = -1): Promise<void> {
    return this.call(`delete ${path}`, (done) => this.client.remove(path, version, (e) => done(e, undefined)));
  }

  /** Runs every operation or none (ZooKeeper `multi`); rejects with the first failing operation's code. */
  transaction(ops: readonly ZkOp[]): Promise<void> {
    return this.call(`transaction of ${ops.length}`, (done) => {
      const tx = this.client.transaction();
      for (const op of ops) {
        if (op.op === 'create') tx.create(op.path, op.data ?? Buffer.alloc(0), [...(op.acl ?? OPEN_ACL)], CREATE_MODES[op.mode ?? 'persistent']);
        else if (op.op === 'setData') tx.setData(op.path, op.data, op.version ?? -1);
        else if (op.op === 'delete') tx.remove(op.path, op.version ?? -1);
        else tx.check(op.path, op.version);
      }
      tx.commit((e) => done(e, undefined));
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopLossClock();
    this.client.close();
  }

  private emit(state: ZkSessionState): void {
    for (const listener of this.listeners) listener(state);
  }

  /** The session is dead (the server said so, or it was lost for a whole timeout): reported once. */
  private expire(): void {
    this.stopLossClock();
    if (this.expired || this.closed) return;
    this.expired = true;
    this.emit('expired');
  }

  /** Starts timing a disconnection (the library reports one per failed reconnection: the first counts). */
  private startLossClock(): void {
    if (this.lossClock !== undefined || this.closed || this.expired) return;
    const timeoutMs = this.sessionTimeoutMs;
    this.lossClock = setTimeout(() => {
      this.lossClock = undefined;
      this.expire();
      if (!this.closed) {
        this.closed = true;
        this.client.close();
      }
      abandonSocket(this.client);
    }, timeoutMs);
    this.lossClock.unref();
  }

  private stopLossClock(): void {
    clearTimeout(this.lossClock);
    this.lossClock = undefined;
  }

  /** One request, bounded by `requestTimeoutMs`, its error as a ZkError. */
  private call<T>(what: string, run: (done: (error: Error | zookeeper.Exception | null, value: T) => void) => void): Promise<T> {
    if (this.expired) return Promise.reject(new ZkError('SESSION_EXPIRED', `ZooKeeper session to ${describeZkUrl(this.url)} expired`));
    if (this.closed) return Promise.reject(new ZkError('CLOSED', `ZooKeeper session to ${describeZkUrl(this.url)} is closed`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new ZkError('CONNECTION_LOSS', `${what}: no answer from ${describeZkUrl(this.url)} within ${this.options.requestTimeoutMs} ms`)), this.options.requestTimeoutMs);
      run((error, value) => {
        clearTimeout(timer);
        if (error === null) resolve(value);
        else reject(zkErrorOf(error, what));
      });
    });
  }
}

/** `world:anyone` with every permission (ZooKeeper's OPEN_ACL_UNSAFE). */
export const OPEN_ACL: readonly zookeeper.ACL[] = [new zookeeper.ACL(PERMS_ALL, new zookeeper.Id('world', 'anyone'))];

/**
 * Every permission for one digest identity only (ZooKeeper's `DigestAuthenticationProvider`:
 * `user:base64(sha1(user:password))`): znodes only a session authenticated as `user:password` can use.
 */
export function digestAcl(user: string, password: string): zookeeper.ACL[] {
  const digest = createHash('sha1').update(`${user}:${password}`).digest('base64');
  return [new zookeeper.ACL(PERMS_ALL, new zookeeper.Id('digest', `${user}:${digest}`))];
}

/**
 * Destroys the library's socket of a session given up on (see {@link ZkSession}), or of one that
 * never opened ({@link ZkSession.open}): a handshake the server never reads would otherwise keep it
 * open for the life of the process. The library has
 * no public call for it, so this reaches its connection manager, and does nothing if that is not
 * shaped as in node-zookeeper-client 1.1.3 (the library then closes the socket itself whenever
 * the server answers or goes).
 */
function abandonSocket(client: zookeeper.Client): void {
  const manager = (client as unknown as { connectionManager?: { socket?: unknown } }).connectionManager;
  const socket = manager?.socket;
  if (socket instanceof Socket) socket.destroy();
}

function watcherOf(watch: ZkWatcher): (event: zookeeper.Event) => void {
  return (event) => {
    const type = WATCH_TYPES[event.getType()];
    if (type !== undefined) watch({ type, path: event.getPath() });
  };
}

function zkErrorOf(error: Error | zookeeper.Exception, what: string): ZkError {
  if (error instanceof zookeeper.Exception) {
    const code = error.getCode();
    const message = `${what}: ${error.getName()}`;
    if (code === zookeeper.Exception.CONNECTION_LOSS || code === zookeeper.Exception.OPERATION_TIMEOUT) return new ZkError('CONNECTION_LOSS', message);
    if (code === zookeeper.Exception.SESSION_EXPIRED) return new ZkError('SESSION_EXPIRED', message);
    if (code === zookeeper.Exception.AUTH_FAILED) return new ZkError('AUTH_FAILED', message);
    return new ZkError('SERVER', message, code);
  }
  return new ZkError('CONNECTION_LOSS', `${what}: ${error.message}`);
}
