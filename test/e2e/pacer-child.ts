import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { killProcessAndGroup } from '../../src/cluster/local/process-identity';
import { hostProcesses } from '../../src/cluster/local/sandbox-processes';
import { waitFor } from './e2e-kit';
import { KILLED_UNCOVERED } from './main-kit';
import { agentPortsArgs } from '../harness/agent-ports';
import { REPO_ROOT } from '../harness/repo-path';

/*
 * A real pacer process on the local cluster, as the kill -9 tests start, kill and start it again
 * on one store and sandbox directory (local-crash.test.ts, local-resident-restart.test.ts).
 */

const STARTUP = /Marathon API on http:\/\/(127\.0\.0\.1:\d+) /;

/** A pacer process, its address once it serves, its exit. */
export interface PacerChild {
  readonly child: ChildProcess;
  readonly base: string;
  readonly exited: Promise<void>;
  stderr(): string;
}

/** How {@link startPacerChild} starts a pacer. */
export interface PacerChildOptions {
  /** False for a pacer that the test ends with SIGKILL whatever happens: see {@link KILLED_UNCOVERED}. Default true. */
  readonly coverage?: boolean;
}

/**
 * Starts `node <entry>` on `dir`'s store and sandboxes (port 0, this run's agent ports, no
 * `PACER_*` variable of the test's environment) and waits until it serves; the child is added to
 * `started` first, so that {@link killerOf} ends it whatever happens.
 */
export async function startPacerChild(entry: readonly string[], dir: string, started: ChildProcess[], options: PacerChildOptions = {}): Promise<PacerChild> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PACER_')) env[k] = v;
  if (options.coverage === false) Object.assign(env, KILLED_UNCOVERED);
  const child = spawn(process.execPath, [...entry, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'), ...agentPortsArgs()], {
    cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const address = await waitFor(() => STARTUP.exec(err)?.[1] ?? (child.exitCode !== null && 'exited'), 'pacer to serve', 60_000);
  if (address === 'exited') throw new Error(`pacer exited: ${err}`);
  return { child, base: `http://${address}`, exited, stderr: () => err };
}

/** One API call with a 30 s bound; its status and JSON body (`{}` when empty). */
export async function callPacer(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method, signal: AbortSignal.timeout(30_000),
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/**
 * What ends every process a test started: the pacers in `started` (SIGKILL) and every task
 * process of `sandboxRoot` (found by its sandbox marker), waiting until none is left.
 */
export function killerOf(started: readonly ChildProcess[], sandboxRoot: string): () => Promise<void> {
  return async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await waitFor(() => {
      const left = hostProcesses(sandboxRoot).filter((p) => p.sandbox !== undefined);
      for (const p of left) killProcessAndGroup(p.pid);
      return left.length === 0;
    }, 'every task process to be gone', 30_000);
  };
}
