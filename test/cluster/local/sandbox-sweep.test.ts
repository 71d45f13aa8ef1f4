import t from 'tap';
import type { HostProcess } from '../../../src/cluster/local/sandbox-processes';
import { planSweep } from '../../../src/cluster/local/sandbox-sweep';
import type { TaskRecord } from '../../../src/cluster/local/state-file';

/*
 * The sweep's decisions on synthetic process tables (the real /proc is exercised by
 * crash-recovery.test.ts): which process a task recorded without a pid adopts, which processes
 * are kept, and which are strays.
 */

const ROOT = '/sb';
const OWN_SESSION = 1;

function task(id: string, pid?: number): TaskRecord {
  return {
    taskId: id, runSpecId: '/app', instanceId: id, sandbox: `${ROOT}/${id}`, hostPorts: [], killGracePeriodMs: 3000,
    resources: { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 }, launchedAtMs: 0, env: {}, state: 'TASK_RUNNING',
    ...(pid === undefined ? {} : { pid, startTime: `${pid}0` }),
  };
}

/** A process: pid, session, the task whose sandbox it names (if any), whether it is a check. */
function proc(pid: number, session: number, taskId?: string, check = false): HostProcess {
  return { pid, pgrp: session, session, startTime: `${pid}0`, ...(taskId === undefined ? {} : { sandbox: `${ROOT}/${taskId}` }), check };
}

interface Case {
  readonly name: string;
  readonly tasks: readonly TaskRecord[];
  readonly processes: readonly HostProcess[];
  /** Pids whose process is alive with the recorded start time (default: every listed pid). */
  readonly dead?: readonly number[];
  readonly found: Record<string, number>;
  readonly strays: readonly number[];
}

const CASES: readonly Case[] = [
  {
    name: 'a recorded task, its child and a foreign process are kept',
    tasks: [task('a', 10)],
    processes: [proc(10, 10, 'a'), proc(11, 10, 'a'), proc(50, 50)],
    found: {}, strays: [],
  },
  {
    name: 'a task without a pid adopts the session leader of its sandbox, not a child',
    tasks: [task('a')],
    processes: [proc(11, 10, 'a'), proc(10, 10, 'a')],
    found: { a: 10 }, strays: [],
  },
  {
    name: 'a task without a pid whose leader is gone adopts nothing; its leftovers are strays',
    tasks: [task('a')],
    processes: [proc(11, 10, 'a'), proc(12, 10)],
    found: {}, strays: [11, 12],
  },
  {
    name: 'a process of an unrecorded task is a stray, and so is everything in its session',
    tasks: [task('a', 10)],
    processes: [proc(10, 10, 'a'), proc(20, 20, 'ghost'), proc(21, 20), proc(22, 22)],
    found: {}, strays: [20, 21],
  },
  {
    name: 'the processes of a recorded task whose process is gone are strays',
    tasks: [task('a', 10)],
    processes: [proc(11, 10, 'a'), proc(12, 12, 'a')],
    dead: [10],
    found: {}, strays: [11, 12],
  },
  {
    name: 'a task\'s daemon (own session, its sandbox) is kept; its orphaned health check is a stray',
    tasks: [task('a', 10)],
    processes: [proc(10, 10, 'a'), proc(30, 30, 'a'), proc(31, 31, 'a', true), proc(32, 31)],
    found: {}, strays: [31, 32],
  },
  {
    name: 'a recycled pid (another start time) is not the task',
    tasks: [task('a', 10)],
    processes: [{ ...proc(10, 10, 'a'), startTime: '999' }],
    found: {}, strays: [10],
  },
  {
    name: 'nothing in the caller\'s own session is swept',
    tasks: [],
    processes: [proc(40, OWN_SESSION, 'ghost'), proc(41, OWN_SESSION)],
    found: {}, strays: [],
  },
];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const dead = new Set(c.dead ?? []);
    const table = new Map(c.processes.map((p) => [p.pid, p]));
    const alive = (pid: number, startTime: string | undefined): boolean =>
      !dead.has(pid) && table.has(pid) && (startTime === undefined || table.get(pid)?.startTime === startTime);
    const plan = planSweep(c.tasks, c.processes, alive, OWN_SESSION);
    t.same(Object.fromEntries([...plan.found].map(([id, p]) => [id, p.pid])), c.found, 'found');
    t.same(plan.strays.map((p) => p.pid).sort((a, b) => a - b), c.strays, 'strays');
  });
}
