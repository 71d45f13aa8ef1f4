import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { parseConfig, type PacerConfig } from '../../src/runtime/config';
import { silentLog } from '../../src/runtime/pacer-log';
import { openRuntime, startScheduler } from '../../src/runtime/runtime-parts';
import type { LeaderDuties } from '../../src/ha/leadership';
import { startHa, type RunningHaPacer } from '../../src/ha/start-ha';
import { makeOffer } from '../builders/cluster-builders';
import { RecordingDriver, type DriverCall } from '../harness/recording-driver';
import { patientSignal, waitFor } from '../harness/wait';
import { SESSION, ZK } from './zk-scratch';

/** What one pacer's duties did: each term's start and stop, every driver call, the offers posted. */
export interface DutiesRecord {
  readonly starts: number[];
  readonly stops: number[];
  readonly calls: { readonly call: DriverCall; readonly atMs: number }[];
  /** Offers the fake cluster posted to the loop after the last stop (it keeps offering). */
  offersAfterStop: number;
}

/** An in-process HA pacer over real HTTP on 127.0.0.1 and a real ZooKeeper, its duties recorded. */
export interface HaPacer {
  readonly running: RunningHaPacer;
  readonly record: DutiesRecord;
  readonly url: string;
  readonly lines: string[];
}

/**
 * Starts `startHa` with `--zk zk://<zk><root> --port <port>` (0: any) and its own SQLite store;
 * the leader's duties are the real core on that store with a {@link RecordingDriver} for a
 * cluster that offers one 4-cpu agent every 50 ms while the term lasts — and keeps posting offers
 * after the stop, so that a test sees the loop drop them.
 */
export async function haPacer(t: Test, root: string, options: { zk?: string; port?: number; noLeaderWaitMs?: number } = {}): Promise<HaPacer> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const parsed = parseConfig([
    '--zk', `zk://${options.zk ?? ZK}${root}`, '--port', String(options.port ?? 0), '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION.sessionTimeoutMs), '--decline_offer_duration', '0',
  ], {}, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  const record: DutiesRecord = { starts: [], stops: [], calls: [], offersAfterStop: 0 };
  const lines: string[] = [];
  const running = await startHa(parsed, {
    startDuties: recordingDuties(t, record), electionLog: (line) => void lines.push(line), rejoinDelayMs: 200,
    onFatal: (error) => void lines.push(`fatal: ${error.message}`), ...(options.noLeaderWaitMs === undefined ? {} : { noLeaderWaitMs: options.noLeaderWaitMs }),
  });
  t.teardown(() => running.close());
  return { running, record, url: `http://${running.address}`, lines };
}

function recordingDuties(t: Test, record: DutiesRecord): (config: PacerConfig) => LeaderDuties {
  return (config) => {
    const base = openRuntime(config, silentLog());
    const driver = new RecordingDriver((call) => void record.calls.push({ call, atMs: Date.now() }));
    const scheduler = startScheduler(config, base, driver);
    let stopped = false;
    const offers = setInterval(() => {
      if (stopped) record.offersAfterStop++;
      base.loop.post({ type: 'offers', offers: [makeOffer({ agent: { hostname: 'agent-1' } })] });
    }, 50);
    t.teardown(() => clearInterval(offers));
    record.starts.push(Date.now());
    return {
      scheduler, submit: (command) => base.loop.submit(command), frameworkId: () => 'ha-test-framework',
      stop: () => {
        stopped = true;
        record.stops.push(Date.now());
        base.release();
      },
    };
  };
}

/** The one pacer that serves, once exactly one does and every pacer names it. */
export async function agreedLeader(pacers: readonly HaPacer[], what = 'one leader that every pacer names'): Promise<HaPacer> {
  return waitFor(() => {
    const serving = pacers.filter((p) => p.running.leadership.serving());
    const only = serving[0];
    return serving.length === 1 && only !== undefined && pacers.every((p) => p.running.leadership.leader() === only.running.address) && only;
  }, what);
}

/** fetch with the patient signal; the answer with its text body. */
export async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { ...init, signal: patientSignal() });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
