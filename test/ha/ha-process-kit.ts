import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { spawnMain, type MainProcess } from '../e2e/main-kit';
import { request, type Answer } from '../api/auth/tls-client';
import { PATIENCE_MS, waitFor } from '../harness/wait';

/**
 * pacer processes (`npm start -- --zk …`, src/main.ts) for the HA tests that need whole processes
 * (kill -9, the process's own trust store): spawned with their own temp store and sandbox
 * directories, their API address read from the startup line (HTTP, or HTTPS with `--disable_http`),
 * SIGKILLed at the end of the test if still running (test/e2e/main-kit.ts).
 */

/** The startup line of main with `--zk`: the primary listener's scheme and port. */
const STARTED = /Marathon API on (https?):\/\/127\.0\.0\.1:(\d+)[ ,(]/;

export interface PacerProcess {
  readonly main: MainProcess;
  /** `http(s)://127.0.0.1:port` of its primary listener. */
  readonly url: string;
  /** `127.0.0.1:port`: what it advertises (`/v2/leader`). */
  readonly address: string;
}

/** Spawns `src/main.ts ...args --port 0 --store <tmp> --sandbox <tmp>` and waits (bounded) for its startup line. */
export async function spawnPacer(t: Test, args: readonly string[], env: Record<string, string> = {}): Promise<PacerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-proc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const main = spawnMain(t, ['--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'), ...args], env);
  const started = await waitFor(() => STARTED.exec(main.stderr()) ?? (main.child.exitCode !== null && 'exited'), 'a pacer\'s startup line');
  if (started === 'exited') throw new Error(`pacer exited: ${main.stderr()}`);
  const address = `127.0.0.1:${started[2] ?? ''}`;
  return { main, url: `${started[1] ?? 'http'}://${address}`, address };
}

/** One request to a pacer over HTTP or HTTPS (trusting `ca` only), bounded by the tests' patience. */
export function ask(p: PacerProcess, path: string, opts: { ca?: Buffer; method?: string; body?: unknown } = {}): Promise<Answer> {
  return request(`${p.url}${path}`, {
    method: opts.method ?? 'GET', timeoutMs: PATIENCE_MS,
    ...(opts.ca === undefined ? {} : { ca: opts.ca }),
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body), headers: { 'content-type': 'application/json' } }),
  });
}

/** `GET /v2/leader` of one pacer: the leader it names, undefined when it names none (or does not answer). */
export async function leaderNamedBy(p: PacerProcess, ca?: Buffer): Promise<string | undefined> {
  const answer = await ask(p, '/v2/leader', ca === undefined ? {} : { ca }).catch(() => undefined);
  return answer?.status === 200 ? (JSON.parse(answer.body) as { leader: string }).leader : undefined;
}

/** The one pacer of `pacers` that every one of them names as leader (bounded: 120 s). */
export async function agreedLeader(pacers: readonly PacerProcess[], what: string, ca?: Buffer): Promise<PacerProcess> {
  return waitFor(async () => {
    const named = await Promise.all(pacers.map((p) => leaderNamedBy(p, ca)));
    const first = named[0];
    return first !== undefined && named.every((n) => n === first) && pacers.find((p) => p.address === first);
  }, what, 2 * PATIENCE_MS, 100);
}
