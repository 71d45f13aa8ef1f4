import net from 'node:net';

/**
 * A TCP relay on 127.0.0.1 between a client under test and a server (a ZooKeeper), which a test
 * can break the way networks break: `cut()` resets every connection and refuses new ones (the
 * client sees its socket close); `freeze()` goes silent — connections stay open but nothing gets
 * through either way (held back, as TCP would retransmit it) until `heal()`; `freezeConnection(i)`
 * does that to one connection only, `freezeNew()` to the connections opened from then on.
 */
export class TcpProxy {
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket; held: [net.Socket, Buffer][]; frozen: boolean }>();
  private mode: 'open' | 'frozen' | 'cut' = 'open';
  private newFrozen = false;

  private constructor(private readonly server: net.Server, private readonly target: { host: string; port: number }) {
    server.on('connection', (client) => this.relay(client));
  }

  /** Listens on 127.0.0.1 (a free port) and relays to `host:port`. */
  static async start(hostPort: string): Promise<TcpProxy> {
    const [host, port] = hostPort.split(':');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new TcpProxy(server, { host: host ?? '127.0.0.1', port: Number(port) });
  }

  /** `127.0.0.1:<port>` to give the client instead of the server's address. */
  get address(): string {
    return `127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  cut(): void {
    this.mode = 'cut';
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.pairs.clear();
  }

  freeze(): void {
    this.mode = 'frozen';
  }

  /** How many connections are open now. */
  get connections(): number {
    return this.pairs.size;
  }

  /**
   * Freezes one connection only (`index` 0: the oldest open now; several ZooKeeper sessions of one
   * client each have theirs): it goes silent as with {@link freeze}, the others relay on.
   */
  freezeConnection(index: number): void {
    const pair = [...this.pairs][index];
    if (pair === undefined) throw new Error(`no connection ${index}: ${this.pairs.size} open`);
    pair.frozen = true;
  }

  /** Connections opened from now on are silent from the start (a new session's handshake gets no answer); open ones relay on. */
  freezeNew(): void {
    this.newFrozen = true;
  }

  heal(): void {
    this.mode = 'open';
    this.newFrozen = false;
    for (const pair of this.pairs) {
      pair.frozen = false;
      for (const [to, chunk] of pair.held) to.write(chunk);
      pair.held.length = 0;
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: net.Socket): void {
    if (this.mode === 'cut') return void client.destroy();
    const upstream = net.connect(this.target.port, this.target.host);
    const pair = { client, upstream, held: [] as [net.Socket, Buffer][], frozen: this.newFrozen };
    this.pairs.add(pair);
    const forward = (to: net.Socket) => (chunk: Buffer): void => {
      if (this.mode === 'open' && !pair.frozen) to.write(chunk);
      else if (this.mode === 'frozen' || pair.frozen) pair.held.push([to, chunk]);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}
