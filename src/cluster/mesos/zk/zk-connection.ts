import net from 'node:net';
import { JuteReader } from './jute-reader';
import { PacketSplitter } from './packet-splitter';
import { ZkError } from './zk-error';
import {
  decodeConnectResponse, decodeReplyHeader, encodeAuthPacket, encodeConnectRequest, encodeRequest, framePacket,
} from './zk-messages';
import { errorCodeName, OpCode, Xid } from './zk-protocol';
import type { ZkServer } from './zk-url';
import { describeServer } from './zk-url';

/** Timing of one connection; every wait is bounded by one of these. */
export interface ZkConnectionOptions {
  /** Session timeout asked of the server; pings go every third of what it grants. */
  sessionTimeoutMs: number;
  /** Bound on TCP connect + ConnectRequest/ConnectResponse (+ auth) with one server. */
  connectTimeoutMs: number;
  /** Bound on each request's reply; a server that misses it is treated as lost. */
  requestTimeoutMs: number;
}

interface Pending {
  resolve: (body: JuteReader) => void;
  reject: (error: ZkError) => void;
  timer: NodeJS.Timeout;
}

/**
 * One session with one ZooKeeper server over TCP: the ConnectRequest handshake, optional digest
 * authentication, pings that keep the session alive, and requests matched to replies by xid.
 * It never reconnects: once lost (socket error, close, timeout, corrupt packet) every pending and
 * later request fails with ZkError `CONNECTION_LOSS` and `alive` turns false; ZkClient then opens
 * a connection to the next server.
 */
export class ZkConnection {
  private readonly splitter = new PacketSplitter();
  private readonly pending = new Map<number, Pending>();
  private nextXid = 1;
  private failure: ZkError | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private handshakeWaiter: { resolve: () => void; reject: (error: ZkError) => void } | undefined;

  private constructor(private readonly socket: net.Socket, readonly server: ZkServer, private options: ZkConnectionOptions) {}

  /**
   * Connects to `server`, opens a new session and, with `digest`, authenticates. Rejects with
   * ZkError `CONNECTION_LOSS` (unreachable, timed out, closed), `SESSION_EXPIRED`, `PROTOCOL`
   * or `AUTH_FAILED`; the socket is destroyed on every failure.
   */
  static async open(server: ZkServer, options: ZkConnectionOptions, digest?: { user: string; password: string }): Promise<ZkConnection> {
    const socket = net.connect({ host: server.host, port: server.port });
    const connection = new ZkConnection(socket, server, options);
    const deadline = setTimeout(() => connection.fail(connection.lost(`no session within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    try {
      await connection.handshake();
      if (digest !== undefined) await connection.authenticate(digest);
      connection.startPings();
      return connection;
    } catch (error) {
      connection.fail(error instanceof ZkError ? error : connection.lost(String(error)));
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Whether requests can still be sent. */
  get alive(): boolean {
    return this.failure === undefined;
  }

  /**
   * Sends a request and resolves with a reader positioned at its reply's body. A non-zero reply
   * code rejects with ZkError `SERVER` carrying the code (e.g. -101 NONODE).
   */
  request(opCode: number, body?: Buffer, xid: number = this.allocateXid()): Promise<JuteReader> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(this.lost(`no reply within ${this.options.requestTimeoutMs} ms`)), this.options.requestTimeoutMs);
      this.pending.set(xid, { resolve, reject, timer });
      this.socket.write(framePacket(encodeRequest(xid, opCode, body)));
    });
  }

  /** Ends the session politely (closeSession, best effort) and the socket; idempotent. */
  close(): void {
    if (this.failure !== undefined) return;
    this.socket.end(framePacket(encodeRequest(this.allocateXid(), OpCode.closeSession)));
    this.fail(new ZkError('CLOSED', `connection to ${describeServer(this.server)} closed`));
  }

  private handshake(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
      this.socket.on('error', (error) => this.fail(this.lost(error.message)));
      this.socket.on('close', () => this.fail(this.lost('the server closed the connection')));
      this.handshakeWaiter = { resolve, reject };
      this.socket.write(framePacket(encodeConnectRequest({ sessionTimeoutMs: this.options.sessionTimeoutMs })));
    });
  }

  /**
   * The first packet is the ConnectResponse; a granted timeout of 0 means no session. A packet
   * that does not decode throws, and `receive` fails the connection, rejecting the handshake.
   */
  private acceptSession(packet: Buffer, resolve: () => void): void {
    const response = decodeConnectResponse(packet);
    if (response.sessionTimeoutMs <= 0) {
      this.fail(new ZkError('SESSION_EXPIRED', `ZooKeeper ${describeServer(this.server)} refused the session`));
      return;
    }
    this.handshakeWaiter = undefined;
    this.options = { ...this.options, sessionTimeoutMs: response.sessionTimeoutMs };
    resolve();
  }

  private async authenticate(digest: { user: string; password: string }): Promise<void> {
    try {
      await this.request(OpCode.auth, encodeAuthPacket('digest', `${digest.user}:${digest.password}`), Xid.auth);
    } catch (error) {
      if (error instanceof ZkError && error.kind === 'SERVER') {
        throw new ZkError('AUTH_FAILED', `${describeServer(this.server)} rejected the digest credentials of user "${digest.user}": ${errorCodeName(error.serverCode ?? 0)}`);
      }
      throw error;
    }
  }

  private startPings(): void {
    const intervalMs = Math.max(1, Math.floor(this.options.sessionTimeoutMs / 3));
    this.pingTimer = setInterval(() => {
      if (this.pending.has(Xid.ping)) return;
      this.request(OpCode.ping, undefined, Xid.ping).catch(() => undefined);
    }, intervalMs);
    this.pingTimer.unref();
  }

  private receive(chunk: Buffer): void {
    try {
      for (const packet of this.splitter.push(chunk)) this.dispatch(packet);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.fail(new ZkError('PROTOCOL', `ZooKeeper ${describeServer(this.server)}: ${reason}`));
    }
  }

  private dispatch(packet: Buffer): void {
    if (this.handshakeWaiter !== undefined) {
      this.acceptSession(packet, this.handshakeWaiter.resolve);
      return;
    }
    const reader = new JuteReader(packet);
    const header = decodeReplyHeader(reader);
    if (header.xid === Xid.notification) return; // no watches are set; tolerate stray events
    const waiter = this.pending.get(header.xid);
    if (waiter === undefined) throw new ZkError('PROTOCOL', `reply to unknown xid ${header.xid}`);
    this.pending.delete(header.xid);
    clearTimeout(waiter.timer);
    if (header.err === 0) waiter.resolve(reader);
    else waiter.reject(new ZkError('SERVER', `${describeServer(this.server)} answered ${errorCodeName(header.err)}`, header.err));
  }

  private allocateXid(): number {
    const xid = this.nextXid;
    this.nextXid = xid >= 0x7fffffff ? 1 : xid + 1;
    return xid;
  }

  private lost(reason: string): ZkError {
    return new ZkError('CONNECTION_LOSS', `ZooKeeper ${describeServer(this.server)}: ${reason}`);
  }

  /** Marks the connection lost (first failure wins), rejects every waiter, frees the socket. */
  private fail(error: ZkError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    clearInterval(this.pingTimer);
    this.handshakeWaiter?.reject(error);
    this.handshakeWaiter = undefined;
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.pending.clear();
    if (error.kind !== 'CLOSED') this.socket.destroy();
  }
}
