import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { nearestRank } from './quantile';

/**
 * The load side of bench:api, in its own process (so that the server measured keeps its core to
 * itself): autocannon runs and `/v2/events` subscribers. The parent talks to it over IPC.
 */

/** One autocannon run. `kind` picks the requests: one fixed request, or one new app id per POST / DELETE. */
export interface LoadSpec {
  readonly url: string;
  readonly connections: number;
  /** Seconds to run (`duration`), or a number of requests (`amount`): exactly one of the two. */
  readonly durationS?: number;
  readonly amount?: number;
  /** `headers`: sent with each GET (bench:api's `--accept-encoding` on the list reads). */
  readonly kind: { readonly type: 'get'; readonly path: string; readonly headers?: Readonly<Record<string, string>> } | { readonly type: 'create-apps' | 'delete-apps'; readonly prefix: string };
  /** Return every answer's time in {@link LoadResult.timesMs} (list loads: a few hundred answers). */
  readonly keepTimes?: boolean;
}

/** What a load run did: every request must have been answered 2xx. */
export interface LoadResult {
  readonly requests: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /**
   * Seconds from the first request sent to the last answer received ({@link AnswerWindow}), not
   * autocannon's `duration`: autocannon ends a run on its 1-second sampling tick, so a load of a
   * fixed number of requests that took 0.3 s reports a `duration` of 1 s.
   */
  readonly durationS: number;
  /** Answers 2xx per second of {@link durationS}. */
  readonly reqPerSec: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly latencyMaxMs: number;
  /** Answers timed (one per response, the first included). */
  readonly answers: number;
  /** The median of every answer's time by nearest rank, ms, from the times themselves (as {@link p99Ms}). */
  readonly p50Ms: number;
  /** The p99 of every answer's time by nearest rank (the ⌈0.99·n⌉-th fastest; the maximum below 100 answers), ms, from the times themselves rather than autocannon's histogram. */
  readonly p99Ms: number;
  /** Every answer's time in the order answered, ms (with {@link LoadSpec.keepTimes}). */
  readonly timesMs?: readonly number[];
  /** The first response's latency, ms: the first answer after a change renders what changed. */
  readonly firstMs: number;
  /** The slowest responses, slowest first, with their place in the order they were answered (0 = the first). */
  readonly slowest: readonly { readonly at: number; readonly ms: number }[];
  /** bytes of the last response (the answer's size). */
  readonly responseBytes: number;
  /**
   * CPU time of the load process (autocannon: reading and parsing the answers) per answer, µs: a
   * big answer's latency includes its client's work, on the same 2 cores as the server.
   */
  readonly clientCpuUsPerAnswer: number;
}

/** Frames received by the subscribers so far. */
export interface SubscriberCounts {
  readonly connected: number;
  readonly closed: number;
  readonly minFrames: number;
  readonly maxFrames: number;
}

/** One read of {@link LoadClient.read}: its status, the bytes of its body and its time. */
export interface ReadResult {
  readonly status: number;
  readonly bytes: number;
  /** From the request written to the last byte of the answer read, ms. */
  readonly ms: number;
  /** CPU time of the load process for the read (reading the answer), µs. */
  readonly clientCpuUs: number;
}

type Request =
  | { readonly to: 'load'; readonly spec: LoadSpec } | { readonly to: 'read'; readonly url: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly to: 'subscribe'; readonly port: number; readonly count: number; readonly query: string } | { readonly to: 'counts' };

/** The load process, started by {@link startLoadClient}. */
export class LoadClient {
  private constructor(private readonly child: ChildProcess) {}

  /** Forks this module as the load process. */
  static start(): LoadClient {
    const child = fork(__filename, ['--load-client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: process.execArgv });
    return new LoadClient(child);
  }

  load(spec: LoadSpec): Promise<LoadResult> {
    return this.ask({ to: 'load', spec }) as Promise<LoadResult>;
  }

  /**
   * One `GET url` as a poller makes it (a load balancer reading the apps after an event): on a
   * connection kept alive from one read to the next, timed from the request to the last byte of
   * the answer. Not an autocannon run: a run of one request counts autocannon's own start (10–60
   * ms of the load process's CPU, measured against a static answer of the same size) in its time.
   */
  read(url: string, headers?: Readonly<Record<string, string>>): Promise<ReadResult | { readonly error: string }> {
    return this.ask({ to: 'read', url, ...(headers === undefined ? {} : { headers }) }) as Promise<ReadResult | { readonly error: string }>;
  }

  /** Opens `count` subscribers to `/v2/events?<query>` on 127.0.0.1:`port`; resolves once all are connected. */
  subscribe(port: number, count: number, query: string): Promise<SubscriberCounts> {
    return this.ask({ to: 'subscribe', port, count, query }) as Promise<SubscriberCounts>;
  }

  counts(): Promise<SubscriberCounts> {
    return this.ask({ to: 'counts' }) as Promise<SubscriberCounts>;
  }

  stop(): void {
    this.child.kill();
  }

  private ask(request: Request): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the load process exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (m) => {
        this.child.off('exit', onExit);
        resolve(m);
      });
      this.child.send(request);
    });
  }
}

/**
 * The time a load took, from autocannon's per-response hook: from the first request sent (an
 * answer received at `t` that took `ms` was sent at `t − ms`) to the last answer received. A load
 * of a fixed number of requests ends on autocannon's next 1-second sampling tick, so its own
 * `duration` is rounded up to whole seconds (200 POSTs answered well within a second reported
 * 1.01 s, hence 198 per second). A timed load's clients also stop at a tick, so its `duration` is
 * about right, but it counts the connections' set-up; both kinds are measured this way.
 */
export class AnswerWindow {
  private firstSentMs = Number.POSITIVE_INFINITY;
  private lastAnsweredMs = Number.NEGATIVE_INFINITY;

  /** An answer received at `nowMs` (performance.now()) that took `latencyMs` from its request. */
  answered(nowMs: number, latencyMs: number): void {
    this.firstSentMs = Math.min(this.firstSentMs, nowMs - latencyMs);
    this.lastAnsweredMs = Math.max(this.lastAnsweredMs, nowMs);
  }

  /** Seconds from the first request sent to the last answer received; 0 before any answer. */
  seconds(): number {
    return this.lastAnsweredMs > this.firstSentMs ? (this.lastAnsweredMs - this.firstSentMs) / 1000 : 0;
  }
}

/** `count` per second of `seconds`, rounded; 0 when no time was measured. */
export function ratePerSecond(count: number, seconds: number): number {
  return seconds > 0 ? Math.round(count / seconds) : 0;
}

/** One autocannon run in this process (the load process runs it for {@link LoadClient.load}). */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let next = 0;
  const base = { url: spec.url, connections: spec.connections, ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.durationS ?? 10 }) };
  const kind = spec.kind;
  const requests: autocannon.Request[] = kind.type === 'get'
    ? [{ method: 'GET', path: kind.path, ...(kind.headers === undefined ? {} : { headers: { ...kind.headers } }) }]
    : kind.type === 'create-apps'
      ? [{
        method: 'POST', path: '/v2/apps', headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ id: `${kind.prefix}-${next++}`, cmd: 'sleep 3600', cpus: 0.01, mem: 16, instances: 0 }) }),
      }]
      : [{ method: 'DELETE', setupRequest: (req) => ({ ...req, path: `/v2/apps${kind.prefix}-${next++}` }) }];
  const times: number[] = [];
  const span = new AnswerWindow();
  let responseBytes = 0;
  const cpu0 = process.cpuUsage();
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...base, requests }, (err, result) => (err === null || err === undefined ? resolve(result) : reject(err)));
    instance.on('response', (_client, _status, bytes, ms) => {
      span.answered(performance.now(), ms);
      times.push(ms);
      responseBytes = bytes;
    });
  });
  const cpu = process.cpuUsage(cpu0);
  const sorted = [...times].sort((a, b) => a - b);
  const slowest = times.map((ms, at) => ({ at, ms: Math.round(ms * 10) / 10 })).sort((a, b) => b.ms - a.ms).slice(0, 5);
  return {
    firstMs: Math.round((times[0] ?? 0) * 10) / 10, slowest, responseBytes, clientCpuUsPerAnswer: Math.round((cpu.user + cpu.system) / Math.max(1, times.length)),
    answers: times.length, p50Ms: Math.round(nearestRank(sorted, 0.5) * 10) / 10, p99Ms: Math.round(nearestRank(sorted, 0.99) * 10) / 10, ...(spec.keepTimes === true ? { timesMs: times.map((ms) => Math.round(ms * 10) / 10) } : {}),
    requests: r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'], ok2xx: r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
    durationS: Math.round(span.seconds() * 1e6) / 1e6, reqPerSec: ratePerSecond(r['2xx'], span.seconds()),
    latencyP50Ms: r.latency.p50, latencyP99Ms: r.latency.p99, latencyMaxMs: r.latency.max,
  };
}

/** The poller's connection ({@link LoadClient.read}), kept alive between reads. */
const pollAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function read(url: string, headers?: Readonly<Record<string, string>>): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const req = http.get(url, { agent: pollAgent, ...(headers === undefined ? {} : { headers }) }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      res.on('end', () => {
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        resolve({ status: res.statusCode ?? 0, bytes, ms: Math.round(ms * 10) / 10, clientCpuUs: cpu.user + cpu.system });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Subscribers: each counts the SSE frames (`\r\n\r\n`-terminated) it reads. */
const frames: number[] = [];
let closed = 0;

function subscribe(port: number, count: number, query: string): Promise<SubscriberCounts> {
  let connected = 0;
  return new Promise((resolve) => {
    for (let i = 0; i < count; i++) {
      const n = frames.push(0) - 1;
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      socket.on('close', () => void closed++);
      socket.write(`GET /v2/events?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
      // Counted in the bytes as they come (no string per chunk): a frame is `\ndata: `; one that
      // straddles two chunks is found in the joint of the last 6 bytes and the next 6.
      let tail = EMPTY;
      let head: Buffer | undefined = EMPTY;
      socket.on('data', (chunk: Buffer) => {
        let data = chunk;
        if (head !== undefined) {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          data = head.subarray(end + 4);
          head = undefined;
          if (++connected === count) resolve(counts());
        }
        if (tail.length > 0) frames[n] += occurrences(Buffer.concat([tail, data.subarray(0, DATA_MARK.length - 1)]));
        frames[n] += occurrences(data);
        tail = Buffer.from(data.subarray(Math.max(0, data.length - (DATA_MARK.length - 1))));
      });
    }
  });
}

const EMPTY = Buffer.alloc(0);
const DATA_MARK = Buffer.from('\ndata: ', 'latin1');

function occurrences(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf(DATA_MARK); at >= 0; at = buf.indexOf(DATA_MARK, at + DATA_MARK.length)) n++;
  return n;
}

function counts(): SubscriberCounts {
  return { connected: frames.length - closed, closed, minFrames: frames.length === 0 ? 0 : Math.min(...frames), maxFrames: frames.length === 0 ? 0 : Math.max(...frames) };
}

if (require.main === module && process.argv[2] === '--load-client') {
  process.on('message', (request: Request) => {
    const reply = (value: unknown): void => void process.send?.(value);
    if (request.to === 'load') runLoad(request.spec).then(reply, (err: Error) => reply({ error: err.message }));
    else if (request.to === 'read') read(request.url, request.headers).then(reply, (err: Error) => reply({ error: err.message }));
    else if (request.to === 'subscribe') void subscribe(request.port, request.count, request.query).then(reply);
    else reply(counts());
  });
}
