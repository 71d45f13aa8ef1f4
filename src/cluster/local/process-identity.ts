import { readdirSync, readFileSync } from 'node:fs';

/** What /proc tells about a process: its state letter, group, session and start time (clock ticks after boot). */
export interface ProcStat {
  readonly state: string;
  readonly pgrp: string;
  readonly session: string;
  readonly startTime: string;
}

/**
 * The start time of `pid` from /proc/<pid>/stat (field 22), which together with the pid names one
 * process for good: a recycled pid has another start time. Undefined where /proc is unavailable.
 */
export function processStartTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

/**
 * Whether the process `pid` still runs and is the one that was started at `startTime` (when
 * known). A zombie counts as gone: it has exited and only waits to be reaped.
 */
export function isProcessAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = readStat(pid);
  if (stat === undefined) return !procAvailable();
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return startTime === undefined || stat.startTime === startTime;
}

/**
 * Whether any process of group `pgid` still runs (zombies excluded). Scans /proc; without /proc,
 * whether the group can still be signalled.
 */
export function isGroupAlive(pgid: number): boolean {
  if (!procAvailable()) return signalGroup(pgid, 0);
  const wanted = String(pgid);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== undefined && stat.pgrp === wanted && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/** SIGKILL the process `pid`, and its process group when it leads one (a task's children die with it). */
export function killProcessAndGroup(pid: number): void {
  signalGroup(pid, 'SIGKILL');
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Send `signal` to the process group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

let hasProc: boolean | undefined;

/** Whether this host has a Linux-style /proc (read once). */
export function procAvailable(): boolean {
  hasProc ??= readStat(process.pid) !== undefined;
  return hasProc;
}

/** /proc/<pid>/stat, or undefined when the process (or /proc) is not there. */
export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields restart after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, , pgrp, session] = fields;
  const startTime = fields[19];
  return state === undefined || pgrp === undefined || session === undefined || startTime === undefined ? undefined : { state, pgrp, session, startTime };
}
