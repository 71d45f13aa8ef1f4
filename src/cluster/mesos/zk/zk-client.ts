import type { JuteReader } from './jute-reader';
import type { ZkConnectionOptions } from './zk-connection';
import { ZkConnection } from './zk-connection';
import { isConnectionFailure, ZkError } from './zk-error';
import { decodeGetChildrenResponse, decodeGetDataResponse, encodePathRequest } from './zk-messages';
import { OpCode } from './zk-protocol';
import type { ZkUrl } from './zk-url';
import { describeZkUrl } from './zk-url';

/**
 * Defaults sized for finding a leader at start-up and on every resubscription: a dead server
 * costs at most `connectTimeoutMs` before the next one is tried.
 */
export const DEFAULT_ZK_CLIENT_OPTIONS: ZkConnectionOptions = {
  sessionTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 5_000,
};

/**
 * A minimal read-mostly ZooKeeper client over an ensemble: it keeps one session with one server,
 * opened lazily on the first request, and when that server is lost (or unreachable) it moves on
 * to the next server of the URL, round robin, each attempt bounded by the options. A request that
 * fails by connection loss is retried once per server before its error is surfaced. Sessions are
 * never resumed: the client holds no ephemeral nodes and no watches, so a fresh session on another
 * server is equivalent.
 */
export class ZkClient {
  private readonly options: ZkConnectionOptions;
  private current: ZkConnection | undefined;
  private connecting: Promise<ZkConnection> | undefined;
  private nextServer = 0;
  private closed = false;

  constructor(private readonly url: ZkUrl, options: Partial<ZkConnectionOptions> = {}) {
    this.options = { ...DEFAULT_ZK_CLIENT_OPTIONS, ...options };
  }

  /** The names (not paths) of `path`'s children. Rejects with ZkError (`SERVER` -101 if absent). */
  async getChildren(path: string): Promise<string[]> {
    return decodeGetChildrenResponse(await this.request(OpCode.getChildren, encodePathRequest(path, false)));
  }

  /** The data of the znode at `path`. Rejects with ZkError (`SERVER` -101 if absent). */
  async getData(path: string): Promise<Buffer> {
    return decodeGetDataResponse(await this.request(OpCode.getData, encodePathRequest(path, false))).data;
  }

  /**
   * Sends any request (RequestHeader type `opCode`, jute `body`) on the current session and
   * resolves with a reader at the reply's body. Exposed for operations this client does not wrap
   * (the tests create znodes through it).
   */
  async request(opCode: number, body?: Buffer): Promise<JuteReader> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.url.servers.length; attempt += 1) {
      const connection = await this.connection();
      try {
        return await connection.request(opCode, body);
      } catch (error) {
        if (!isConnectionFailure(error) || this.closed) throw error;
        lastError = error;
        this.dropConnection(connection);
      }
    }
    throw lastError;
  }

  /** Ends the session; later requests reject with ZkError `CLOSED`. Idempotent. */
  close(): void {
    this.closed = true;
    this.current?.close();
    this.current = undefined;
  }

  /** The live connection, or the one being opened to the next reachable server (shared). */
  private connection(): Promise<ZkConnection> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.current?.alive === true) return Promise.resolve(this.current);
    this.connecting ??= this.tryEachServer().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Tries every server once, starting at the rotation point; UNREACHABLE lists why each failed. */
  private async tryEachServer(): Promise<ZkConnection> {
    const failures: string[] = [];
    for (let tried = 0; tried < this.url.servers.length; tried += 1) {
      const server = this.url.servers[this.nextServer % this.url.servers.length];
      try {
        return this.adopt(await ZkConnection.open(server, this.options, this.url.digest));
      } catch (error) {
        if (error instanceof ZkError && (error.kind === 'AUTH_FAILED' || error.kind === 'CLOSED')) throw error;
        failures.push(error instanceof Error ? error.message : String(error));
        this.nextServer += 1;
      }
    }
    throw new ZkError('UNREACHABLE', `cannot reach ZooKeeper at ${describeZkUrl(this.url)}: ${failures.join('; ')}`);
  }

  private adopt(connection: ZkConnection): ZkConnection {
    if (this.closed) {
      connection.close();
      throw this.closedError();
    }
    this.current = connection;
    return connection;
  }

  /** Forgets a lost connection and moves the rotation past its server. */
  private dropConnection(connection: ZkConnection): void {
    connection.close();
    if (this.current === connection) this.current = undefined;
    this.nextServer = this.url.servers.indexOf(connection.server) + 1;
  }

  private closedError(): ZkError {
    return new ZkError('CLOSED', `ZooKeeper client for ${describeZkUrl(this.url)} is closed`);
  }
}
