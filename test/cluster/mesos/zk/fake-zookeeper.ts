import net from 'node:net';
import { JuteReader } from '../../../../src/cluster/mesos/zk/jute-reader';
import { JuteWriter } from '../../../../src/cluster/mesos/zk/jute-writer';
import { PacketSplitter } from '../../../../src/cluster/mesos/zk/packet-splitter';
import { framePacket } from '../../../../src/cluster/mesos/zk/zk-messages';
import { ErrorCode, OpCode } from '../../../../src/cluster/mesos/zk/zk-protocol';

/** How a FakeZooKeeper behaves; every field is optional. */
export interface FakeZooKeeperOptions {
  /** Znodes by full path (`/mesos/json.info_0000000001`); parents need not be listed. */
  znodes?: Record<string, string>;
  /** `user:password` the server accepts in a digest AuthPacket; others get AUTHFAILED. */
  digest?: string;
  /** Accept TCP connections but never answer anything (a hung server). */
  silent?: boolean;
  /** Complete the handshake, then never answer a request (a server stuck after a partition). */
  hangRequests?: boolean;
  /** Answer ConnectRequest with a 0 timeout (the session is refused / expired). */
  refuseSession?: boolean;
  /** Called before a getData is answered (lets a test make a znode vanish mid-election). */
  beforeGetData?: (path: string, server: FakeZooKeeper) => void;
}

/**
 * A ZooKeeper server speaking just enough of the jute protocol for the master detector: the
 * session handshake, getChildren, getData, ping, digest auth and closeSession, over an in-memory
 * znode map. Binds 127.0.0.1 on a free port. `requests` logs what clients asked, in order.
 */
export class FakeZooKeeper {
  readonly znodes: Map<string, Buffer>;
  readonly requests: string[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly server: net.Server, private readonly options: FakeZooKeeperOptions) {
    this.znodes = new Map(Object.entries(options.znodes ?? {}).map(([path, data]) => [path, Buffer.from(data)]));
  }

  /** Starts a fake on 127.0.0.1 and a free port. */
  static async start(options: FakeZooKeeperOptions = {}): Promise<FakeZooKeeper> {
    const server = net.createServer();
    const fake = new FakeZooKeeper(server, options);
    server.on('connection', (socket) => fake.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `127.0.0.1:<port>` for a zk URL. */
  get hostPort(): string {
    const address = this.server.address() as net.AddressInfo;
    return `127.0.0.1:${address.port}`;
  }

  /** Drops every client connection (a server crash as clients see it), keeps listening. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Stops listening and drops every connection. */
  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    if (this.options.silent === true) return;
    const splitter = new PacketSplitter();
    let greeted = false;
    socket.on('data', (chunk: Buffer) => {
      for (const packet of splitter.push(chunk)) {
        if (greeted && this.options.hangRequests === true) continue;
        if (greeted) this.answer(socket, new JuteReader(packet));
        else this.greet(socket, new JuteReader(packet));
        greeted = true;
      }
    });
  }

  private greet(socket: net.Socket, request: JuteReader): void {
    request.int(); // protocolVersion
    request.long(); // lastZxidSeen
    const timeoutMs = request.int();
    this.requests.push('connect');
    const response = new JuteWriter().int(0).int(this.options.refuseSession === true ? 0 : timeoutMs).long(0x1234n)
      .buffer(Buffer.alloc(16, 7)).bool(false).bytes();
    socket.write(framePacket(response));
  }

  private answer(socket: net.Socket, request: JuteReader): void {
    const xid = request.int();
    const type = request.int();
    const reply = (err: number, body: Buffer = Buffer.alloc(0)): void => {
      socket.write(framePacket(Buffer.concat([new JuteWriter().int(xid).long(42n).int(err).bytes(), body])));
    };
    if (type === OpCode.getChildren) this.getChildren(request, reply);
    else if (type === OpCode.getData) this.getData(request, reply);
    else if (type === OpCode.auth) this.auth(socket, request, reply);
    else if (type === OpCode.ping) reply(0);
    else if (type === OpCode.closeSession) {
      this.requests.push('closeSession');
      reply(0);
      socket.end();
    } else reply(ErrorCode.UNIMPLEMENTED);
  }

  private getChildren(request: JuteReader, reply: (err: number, body?: Buffer) => void): void {
    const path = request.ustring() ?? '';
    this.requests.push(`getChildren ${path}`);
    if (!this.exists(path)) return reply(ErrorCode.NONODE);
    const prefix = path === '/' ? '/' : `${path}/`;
    const names = [...this.znodes.keys()]
      .filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map((key) => key.slice(prefix.length));
    const writer = new JuteWriter().int(names.length);
    for (const name of names) writer.ustring(name);
    reply(0, writer.bytes());
  }

  private getData(request: JuteReader, reply: (err: number, body?: Buffer) => void): void {
    const path = request.ustring() ?? '';
    this.requests.push(`getData ${path}`);
    this.options.beforeGetData?.(path, this);
    const data = this.znodes.get(path);
    if (data === undefined) return reply(ErrorCode.NONODE);
    const stat = new JuteWriter().long(1n).long(2n).long(3n).long(4n).int(0).int(0).int(0).long(0x1234n).int(data.length).int(0).long(5n);
    reply(0, Buffer.concat([new JuteWriter().buffer(data).bytes(), stat.bytes()]));
  }

  private auth(socket: net.Socket, request: JuteReader, reply: (err: number, body?: Buffer) => void): void {
    request.int(); // type
    const scheme = request.ustring();
    const credentials = (request.buffer() ?? Buffer.alloc(0)).toString('utf8');
    this.requests.push(`auth ${scheme}`);
    if (scheme === 'digest' && credentials === this.options.digest) return reply(0);
    reply(ErrorCode.AUTHFAILED);
    socket.end();
  }

  /** A path exists when it is stored, is the root, or is the parent of a stored path. */
  private exists(path: string): boolean {
    return path === '/' || this.znodes.has(path) || [...this.znodes.keys()].some((key) => key.startsWith(`${path}/`));
  }
}

/** The JSON MasterInfo a Mesos 1.x master writes into its `json.info_` znode. */
export function masterInfoJson(hostname: string, ip: string, port: number): string {
  return JSON.stringify({
    address: { hostname, ip, port },
    hostname,
    id: `master-${hostname}-${port}`,
    ip: 16777343,
    pid: `master@${ip}:${port}`,
    port,
    version: '1.11.0',
  });
}
