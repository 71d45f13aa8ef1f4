import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus } from 'node:os';
import Fastify from 'fastify';
import type { ApiDeps } from '../src/api/api-deps';
import { DEFAULT_EVENT_BUFFER_BYTES, EventStreamHub } from '../src/api/events/event-stream-hub';
import { eventsRoutes } from '../src/api/events/routes';
import type { WireEvent } from '../src/api/events/wire-event';

/**
 * bench sse-memory — does the server's memory level off once slow `/v2/events` subscribers are
 * dropped (issue 11.5)? This process serves the real `/v2/events` route and hub on 127.0.0.1; a
 * child process opens `subscribers` connections, `slow` of which never read. Events of `eventBytes`
 * are published at `rate` per second. The slow ones fall behind and are disconnected (1024 events
 * or 16 MiB); publishing then goes on for `steadySeconds` with only readers attached. RSS, heap and
 * external memory are sampled every 250 ms. The run fails (exit 1) when a reader was disconnected,
 * a slow one was not, or RSS grew in the steady phase by more than `maxGrowthMib` between its first
 * and its last third (the peaks of each third are compared, so one GC cycle is no growth). Writes
 * its figures and samples to `bench/results/`.
 *
 *   npx tsx bench/sse-memory.ts                                   # 1,000 subscribers, 100 slow
 *   npx tsx bench/sse-memory.ts --subscribers 200 --slow 20 --steady 5
 *   npx tsx bench/sse-memory.ts --event-bytes 65536 --rate 10 --buffer-bytes 1e12   # without the byte bound
 */
export interface SseMemoryOptions {
  readonly subscribers: number;
  readonly slow: number;
  readonly rate: number;
  readonly eventBytes: number;
  readonly steadySeconds: number;
  readonly maxGrowthMib: number;
  /** Give up waiting for the slow subscribers to be dropped after this long. */
  readonly dropTimeoutSeconds: number;
  /** The hub's byte bound per subscriber (its default unless given: compare with a huge one). */
  readonly bufferBytes?: number;
}

export const DEFAULT_SSE_MEMORY_OPTIONS: SseMemoryOptions = {
  subscribers: 1000, slow: 100, rate: 200, eventBytes: 512, steadySeconds: 30, maxGrowthMib: 16, dropTimeoutSeconds: 120,
};

/** One memory sample, MiB, at `atS` seconds since publishing started. */
export interface MemorySample {
  readonly atS: number;
  readonly phase: 'attach' | 'dropping' | 'steady';
  readonly subscribers: number;
  readonly rssMib: number;
  readonly heapMib: number;
  readonly externalMib: number;
}

export interface SseMemoryResult {
  readonly options: SseMemoryOptions;
  readonly machine: string;
  readonly node: string;
  readonly date: string;
  readonly published: number;
  readonly droppedAfterS: number | undefined;
  readonly readersLeft: number;
  readonly framesPerReader: { readonly min: number; readonly max: number };
  readonly rssMib: { readonly attached: number; readonly peak: number; readonly steadyFirstThird: number; readonly steadyLastThird: number; readonly end: number };
  readonly steadyGrowthMib: number;
  readonly samples: readonly MemorySample[];
  readonly passed: boolean;
  readonly problems: readonly string[];
}

const MIB = 1024 * 1024;

/** Runs the measurement; the server is this process, the subscribers a child process. */
export async function runSseMemory(options: SseMemoryOptions): Promise<SseMemoryResult> {
  const listeners = new Set<(event: WireEvent) => void>();
  const hub = new EventStreamHub({
    subscribe: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    clock: { nowMs: () => Date.now() },
    ...(options.bufferBytes === undefined ? {} : { bufferBytes: options.bufferBytes }),
  });
  const app = Fastify({ logger: false });
  eventsRoutes(app, { config: { httpAddress: '127.0.0.1:0' } } as unknown as ApiDeps, hub);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as net.AddressInfo).port;
  const child = fork(__filename, ['--subscriber-process', String(port), String(options.subscribers), String(options.slow)], { stdio: 'inherit' });
  const samples: MemorySample[] = [];
  const problems: string[] = [];
  try {
    await waitFor(() => hub.subscriberCount === options.subscribers, 60_000, `${options.subscribers} subscribers to attach`);
    const startedMs = Date.now();
    const sample = (phase: MemorySample['phase']): void => {
      const m = process.memoryUsage();
      samples.push({
        atS: (Date.now() - startedMs) / 1000, phase, subscribers: hub.subscriberCount,
        rssMib: m.rss / MIB, heapMib: m.heapUsed / MIB, externalMib: (m.external + m.arrayBuffers) / MIB,
      });
    };
    sample('attach');
    const readers = options.subscribers - options.slow;
    const blob = 'x'.repeat(options.eventBytes);
    let published = 0;
    let droppedAtMs: number | undefined;
    const publishTimer = setInterval(() => {
      for (let i = 0; i < options.rate / 20; i++) {
        const event = { eventType: 'status_update_event', timestamp: new Date().toISOString(), seq: published++, blob };
        for (const listener of listeners) listener(event);
      }
    }, 50);
    const sampleTimer = setInterval(() => sample(droppedAtMs === undefined ? 'dropping' : 'steady'), 250);
    try {
      await waitFor(() => hub.subscriberCount <= readers, options.dropTimeoutSeconds * 1000, 'the slow subscribers to be dropped')
        .catch((err: Error) => problems.push(err.message));
      droppedAtMs = Date.now();
      await sleep(options.steadySeconds * 1000);
    } finally {
      clearInterval(publishTimer);
      clearInterval(sampleTimer);
    }
    sample('steady');
    const counts = await delivered(child, published, 60_000);
    if (counts.min < published) problems.push(`a reader got ${counts.min} frames of ${published} published events`);
    const readersLeft = hub.subscriberCount;
    if (readersLeft !== readers) problems.push(`${readersLeft} subscribers attached at the end, expected the ${readers} readers`);
    const steady = samples.filter((s) => s.phase === 'steady').map((s) => s.rssMib);
    const third = Math.max(1, Math.floor(steady.length / 3));
    const first = Math.max(...steady.slice(0, third));
    const last = Math.max(...steady.slice(-third));
    const growth = last - first;
    if (growth > options.maxGrowthMib) problems.push(`RSS grew by ${growth.toFixed(1)} MiB in the steady phase (bound ${options.maxGrowthMib} MiB)`);
    return {
      options, machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`, node: process.version, date: new Date().toISOString(),
      published, droppedAfterS: droppedAtMs === undefined ? undefined : (droppedAtMs - startedMs) / 1000, readersLeft,
      framesPerReader: counts,
      rssMib: {
        attached: samples[0].rssMib, peak: Math.max(...samples.map((s) => s.rssMib)),
        steadyFirstThird: first, steadyLastThird: last, end: samples[samples.length - 1].rssMib,
      },
      steadyGrowthMib: growth, samples, passed: problems.length === 0, problems,
    };
  } finally {
    child.kill();
    hub.close();
    await app.close();
  }
}

/** Asks the subscriber process how many frames its readers got. */
function frameCounts(child: ChildProcess): Promise<{ min: number; max: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { min: number; max: number }));
    child.send('count');
  });
}

/** The readers' frame counts once every reader has read `published` frames, or after `timeoutMs`. */
async function delivered(child: ChildProcess, published: number, timeoutMs: number): Promise<{ min: number; max: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await frameCounts(child);
    if (counts.min >= published || Date.now() > deadline) return counts;
    await sleep(100);
  }
}

/**
 * The subscriber process: `total` connections to `/v2/events`, the first `slow` of which never
 * read after their request; the others read and count frames.
 */
function subscriberProcess(port: number, total: number, slow: number): void {
  const frames: number[] = [];
  for (let i = 0; i < total; i++) {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    socket.write('GET /v2/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    if (i < slow) {
      socket.pause();
      continue;
    }
    const n = frames.push(0) - 1;
    let tail = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      const text = tail + chunk;
      frames[n] += text.split('\r\n\r\n').length - 1;
      tail = text.slice(text.lastIndexOf('\r\n\r\n') + 4).slice(-3);
    });
  }
  process.on('message', () => process.send?.({ min: Math.min(...frames), max: Math.max(...frames) }));
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function parseArgs(argv: readonly string[]): SseMemoryOptions {
  const flags: Record<string, keyof SseMemoryOptions> = {
    '--subscribers': 'subscribers', '--slow': 'slow', '--rate': 'rate', '--event-bytes': 'eventBytes',
    '--steady': 'steadySeconds', '--max-growth': 'maxGrowthMib', '--drop-timeout': 'dropTimeoutSeconds', '--buffer-bytes': 'bufferBytes',
  };
  const options: Record<string, number> = { ...DEFAULT_SSE_MEMORY_OPTIONS };
  for (let i = 0; i < argv.length; i += 2) {
    const key = flags[argv[i]];
    const value = Number(argv[i + 1]);
    if (key === undefined || !Number.isFinite(value) || value < 0) throw new Error(`usage: ${Object.keys(flags).join(' N, ')} N`);
    options[key] = value;
  }
  return options as unknown as SseMemoryOptions;
}

function report(r: SseMemoryResult): string {
  const f = (n: number): string => n.toFixed(1);
  return [
    `sse-memory: ${r.options.subscribers} subscribers (${r.options.slow} never read), ${r.options.rate} events/s of ${r.options.eventBytes} B, `
      + `buffer ${r.options.bufferBytes ?? DEFAULT_EVENT_BUFFER_BYTES} B, ${r.machine}, node ${r.node}, ${r.date}`,
    `  published ${r.published} events; slow subscribers dropped after ${r.droppedAfterS?.toFixed(1) ?? '—'} s; ${r.readersLeft} readers left, ${r.framesPerReader.min}–${r.framesPerReader.max} frames each`,
    `  RSS MiB: attached ${f(r.rssMib.attached)}, peak ${f(r.rssMib.peak)}, steady phase first third ${f(r.rssMib.steadyFirstThird)} → last third ${f(r.rssMib.steadyLastThird)} (growth ${f(r.steadyGrowthMib)}), end ${f(r.rssMib.end)}`,
    r.passed ? 'PASSED' : `FAILED: ${r.problems.join('; ')}`,
  ].join('\n');
}

if (require.main === module) {
  if (process.argv[2] === '--subscriber-process') {
    subscriberProcess(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5]));
  } else {
    runSseMemory(parseArgs(process.argv.slice(2))).then((r) => {
      process.stdout.write(`${report(r)}\n`);
      writeFileSync(`bench/results/sse-memory-${r.date.replace(/[:.]/g, '-')}.json`, `${JSON.stringify(r, null, 2)}\n`);
      process.exitCode = r.passed ? 0 : 1;
    }, (err: unknown) => {
      process.stderr.write(`sse-memory: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 2;
    });
  }
}
