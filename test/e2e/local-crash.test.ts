import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import t from 'tap';
import { sandboxOf } from '../../src/cluster/local/sandbox-of';
import { hostProcesses } from '../../src/cluster/local/sandbox-processes';
import { tempDir, waitFor, within } from './e2e-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { callPacer, killerOf, startPacerChild } from './pacer-child';

/*
 * The crash test of issue 11: a write load on the local cluster with real `sleep` processes,
 * through the REST API of a real pacer process, killed with SIGKILL at a random moment of the
 * load, CYCLES times, each time restarted on the same store and sandboxes. It asserts:
 * - no acknowledged change is lost: after every restart, every app whose last change was
 *   answered 2xx has exactly that definition (instances), every acknowledged delete stays
 *   deleted; a change cut off by the kill is either applied whole or not at all;
 * - at the end, once pacer has converged: every process of the sandboxes belongs to a task that
 *   /v2/tasks shows (no untracked process), and no instance has more than its one process.
 * Every wait is on a condition with a generous bound; every process the test started (pacers and
 * their tasks, found by their sandbox marker) is killed at the end, also when it fails.
 */

/** Kills (PACER_CRASH_CYCLES overrides, for longer runs by hand). */
const CYCLES = Number(process.env.PACER_CRASH_CYCLES ?? 12);
/** The load's seed (PACER_CRASH_SEED replays a run's load; the kill moments still vary with the machine). */
const SEED = Number(process.env.PACER_CRASH_SEED ?? Date.now() % 100_000);
const MAX_APPS = 24;

/** What the test knows of one app: its acknowledged instances, or that a change to it is unanswered. */
interface AppTruth {
  instances: number | 'deleted';
  /** A change whose answer never came (the kill): after the restart, either value is right. */
  pending?: number | 'deleted';
}

/** Every app pacer has: id → instances. */
async function appsOf(base: string): Promise<Map<string, number>> {
  const { json } = await callPacer(base, 'GET', '/v2/apps');
  return new Map((json.apps as { id: string; instances: number }[]).map((a) => [a.id, a.instances]));
}

/**
 * Writes until `stop` resolves, from a few concurrent clients: creates, scales and deletes, each
 * recorded in `truth` when answered 2xx, marked pending while in flight.
 */
async function writeLoad(base: string, truth: Map<string, AppTruth>, rng: () => number, next: { app: number }, stop: Promise<void>): Promise<number> {
  let stopped = false;
  void stop.then(() => { stopped = true; });
  let answered = 0;
  const live = (): string[] => [...truth].filter(([, v]) => v.instances !== 'deleted' && v.pending === undefined).map(([k]) => k);
  const client = async (): Promise<void> => {
    while (!stopped) {
      const roll = rng();
      const apps = live();
      let id: string;
      let target: number | 'deleted';
      let request: Promise<{ status: number }>;
      if (apps.length < 4 || (roll < 0.4 && apps.length < MAX_APPS)) {
        id = `/crash/app-${next.app++}`;
        target = 1 + Math.floor(rng() * 3);
        truth.set(id, { instances: 'deleted', pending: target });
        request = callPacer(base, 'POST', '/v2/apps', { id, cmd: 'sleep 3600', cpus: 0.001, mem: 0, instances: target, portDefinitions: [] });
      } else {
        id = apps[Math.floor(rng() * apps.length)];
        const entry = truth.get(id) as AppTruth;
        target = roll < 0.85 ? Math.floor(rng() * 4) : 'deleted';
        entry.pending = target;
        request = target === 'deleted'
          ? callPacer(base, 'DELETE', `/v2/apps${id}?force=true`)
          : callPacer(base, 'PUT', `/v2/apps${id}?force=true`, { instances: target });
      }
      let status: number;
      try {
        status = (await request).status;
      } catch {
        return; // the kill: this change stays pending
      }
      const entry = truth.get(id) as AppTruth;
      if (status >= 200 && status < 300) {
        entry.instances = target;
        answered++;
      } else if (status !== 409) {
        throw new Error(`${id}: answered ${status}`);
      }
      delete entry.pending;
    }
  };
  await Promise.all([client(), client(), client()]);
  return answered;
}

/** The problems of pacer's apps against what the test knows, then the truth updated to what pacer has. */
function checkAcknowledged(apps: ReadonlyMap<string, number>, truth: Map<string, AppTruth>): string[] {
  const problems: string[] = [];
  for (const [id, entry] of truth) {
    const actual = apps.get(id) ?? 'deleted';
    const allowed = entry.pending === undefined ? [entry.instances] : [entry.instances, entry.pending];
    if (!allowed.includes(actual)) problems.push(`${id}: pacer has ${actual}, acknowledged ${allowed.join(' or ')}`);
    truth.set(id, { instances: actual });
  }
  for (const id of apps.keys()) if (!truth.has(id)) problems.push(`${id}: never created, yet pacer has it`);
  return problems;
}

/** Every app at its instance count with every task running and no deployment left; answers the tasks by id. */
async function converged(base: string): Promise<Map<string, string> | false> {
  const deployments = await callPacer(base, 'GET', '/v2/deployments');
  if ((deployments.json as unknown as unknown[]).length > 0) return false;
  const { json } = await callPacer(base, 'GET', '/v2/apps');
  for (const app of json.apps as { instances: number; tasksRunning: number; tasksStaged: number }[]) {
    if (app.tasksRunning !== app.instances || app.tasksStaged !== 0) return false;
  }
  const tasks = (await callPacer(base, 'GET', '/v2/tasks')).json.tasks as { id: string; appId: string; state: string }[];
  if (tasks.some((task) => task.state !== 'TASK_RUNNING')) return false;
  return new Map(tasks.map((task) => [task.id, task.appId]));
}

/** What keeps pacer from having converged, per app (for the failure message). */
async function unconverged(base: string): Promise<string[]> {
  const { json } = await callPacer(base, 'GET', '/v2/apps?embed=apps.deployments');
  return (json.apps as { id: string; instances: number; tasksRunning: number; tasksStaged: number; deployments: unknown[] }[])
    .filter((a) => a.tasksRunning !== a.instances || a.tasksStaged !== 0 || a.deployments.length > 0)
    .map((a) => `${a.id}: ${a.tasksRunning}/${a.instances} running, ${a.tasksStaged} staged, ${a.deployments.length} deployments`);
}

t.test(`kill -9 of pacer under a write load of real processes, ${CYCLES} times (seed ${SEED})`, async (t) => {
  const dir = tempDir(t, 'pacer-crash-');
  const sandboxRoot = join(dir, 'sandboxes');
  const started: ChildProcess[] = [];
  const killEverything = killerOf(started, sandboxRoot);
  t.teardown(killEverything);
  const rng = seedrandom(String(SEED));
  const entry = nodeArgsFor('src/main.ts');
  t.comment(`pacer runs as node ${entry.join(' ')}; seed ${SEED} (PACER_CRASH_SEED=${SEED} replays the load)`);
  const truth = new Map<string, AppTruth>();
  const next = { app: 0 };
  const t0 = Date.now();
  let writes = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    // Killed with SIGKILL below: it never writes coverage, so it collects none (the last pacer, stopped with SIGTERM, does).
    const pacer = await startPacerChild(entry, dir, started, { coverage: false });
    const lost = checkAcknowledged(await appsOf(pacer.base), truth);
    t.same(lost, [], `restart ${cycle}: every acknowledged change is there`);
    const killAfterMs = 300 + Math.floor(rng() * 1200);
    const kill = new Promise<void>((done) => setTimeout(() => {
      pacer.child.kill('SIGKILL');
      done();
    }, killAfterMs));
    writes += await writeLoad(pacer.base, truth, rng, next, kill);
    await within(pacer.exited, 'the killed pacer to exit', 30_000);
    t.comment(`cycle ${cycle}: killed after ${killAfterMs} ms of load; ${Math.round((Date.now() - t0) / 100) / 10} s so far`);
  }
  t.comment(`${CYCLES} kills, ${writes} acknowledged writes, ${next.app} apps created, ${Math.round((Date.now() - t0) / 1000)} s`);

  const pacer = await startPacerChild(entry, dir, started);
  t.same(checkAcknowledged(await appsOf(pacer.base), truth), [], 'after the last restart: every acknowledged change is there');
  const tasks = await waitFor(() => converged(pacer.base), 'pacer to converge (every instance running, no deployment)', 50_000).catch(async (err: Error) => {
    throw new Error(`${err.message}; not converged: ${(await unconverged(pacer.base)).join('; ')}\n${pacer.stderr()}`);
  });
  const expected = [...truth.values()].reduce((n, e) => n + (e.instances === 'deleted' ? 0 : e.instances), 0);
  t.equal(tasks.size, expected, `${expected} tasks running, as the acknowledged apps ask`);
  const taskBySandbox = new Map([...tasks.keys()].map((id) => [sandboxOf(sandboxRoot, id), id]));
  const processes = hostProcesses(sandboxRoot).filter((p) => p.sandbox !== undefined);
  const untracked = processes.filter((p) => !taskBySandbox.has(p.sandbox as string));
  t.same(untracked.map((p) => `${p.pid} in ${p.sandbox}`), [], 'no process of the sandboxes that /v2/tasks does not show');
  const leaders = new Map<string, number>();
  for (const p of processes) if (p.pid === p.session) leaders.set(p.sandbox as string, (leaders.get(p.sandbox as string) ?? 0) + 1);
  const doubled = [...leaders].filter(([, n]) => n > 1);
  t.same(doubled, [], 'no task with more than one process');
  t.equal([...leaders.values()].reduce((a, b) => a + b, 0), expected, 'one process per running task');
  t.comment(`converged; ${Math.round((Date.now() - t0) / 1000)} s in all`);
  pacer.child.kill('SIGTERM');
  await within(pacer.exited, 'pacer to stop', 30_000);
  await killEverything();
});
