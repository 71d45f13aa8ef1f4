import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { defaultConfig, type PacerConfig } from '../../../../src/runtime/config';
import { startMesos, type RunningMesosPacer } from '../../../../src/runtime/start-mesos';
import { FakeMaster } from '../fake-master/fake-master';
import type { RealTimeMaster } from '../fake-master/real-time-master';
import { waitUntil } from '../fake-master/wait-until';
import { FAST } from './driver-fixture';

/** Every wait of these tests is bounded by this (generous: the machine may be loaded). */
export const WAIT_MS = 60_000;

/** A whole pacer (`startMesos`: store, core, driver, API on 127.0.0.1:0) subscribed to a fake master. */
export async function pacerOn(t: Test): Promise<{ master: FakeMaster; pacer: RunningMesosPacer; frameworkId: string }> {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-mesos-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pacer = await startMesos({ ...defaultConfig(dir), cluster: 'mesos', port: 0, master: master.url }, {
    driver: { ...FAST, logger: { info: () => undefined, warn: () => undefined } },
  });
  t.teardown(() => pacer.close());
  const frameworkId = await waitUntil(() => pacer.cluster.frameworkId, WAIT_MS, 'the subscription');
  return { master, pacer, frameworkId };
}

/**
 * Starts (or restarts, on the same data directory `dir`) a whole pacer subscribed to the real-time
 * fake master `rt`, with `config` over the defaults; it is closed at the test's end, or earlier
 * through its own `close` (once either way).
 */
export async function pacerAt(t: Test, rt: RealTimeMaster, dir: string, config: Partial<PacerConfig> = {}): Promise<RunningMesosPacer> {
  const pacer = await startMesos({ ...defaultConfig(dir), cluster: 'mesos', port: 0, master: rt.url, ...config }, {
    driver: { ...FAST, logger: { info: () => undefined, warn: () => undefined } },
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await pacer.close();
  };
  t.teardown(close);
  await waitUntil(() => pacer.cluster.frameworkId !== undefined && rt.master.fake.subscribed, WAIT_MS, 'the subscription');
  return { ...pacer, close } as RunningMesosPacer;
}

/** One HTTP request to the pacer's API; the body as JSON (or text when it is not JSON). */
export async function call(pacer: RunningMesosPacer, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://${pacer.address}${path}`, {
    method, ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown = text;
  try { json = JSON.parse(text); } catch { /* not JSON: the text */ }
  return { status: res.status, json };
}

