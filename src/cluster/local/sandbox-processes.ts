import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { procAvailable, readStat } from './process-identity';

/**
 * The variable that marks the process of an agent-run COMMAND check (health-probe.ts): it runs
 * with its task's environment, so without the mark it would pass for the task.
 */
export const CHECK_MARK = 'PACER_LOCAL_CHECK';

/** A live process of this host, as the sweep of the sandboxes sees it. */
export interface HostProcess {
  readonly pid: number;
  readonly pgrp: number;
  readonly session: number;
  readonly startTime: string;
  /** The task sandbox its environment names (`MESOS_SANDBOX`), when that lies directly under the sandbox root. */
  readonly sandbox?: string;
  /** It is an agent-run command check (its environment carries {@link CHECK_MARK}). */
  readonly check: boolean;
}

/**
 * Every live process of this host that is not a zombie, with the task sandbox (under
 * `sandboxRoot`) its environment names, if any. Only processes whose environment can be read
 * (this user's) can be marked; the others are listed for their session only. Empty where there
 * is no /proc (then nothing can be swept, see sandbox-sweep.ts).
 */
export function hostProcesses(sandboxRoot: string): HostProcess[] {
  if (!procAvailable()) return [];
  const root = resolve(sandboxRoot);
  const out: HostProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = readStat(pid);
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X') continue;
    const env = readEnviron(pid);
    const sandbox = env.get('MESOS_SANDBOX');
    out.push({
      pid, pgrp: Number(stat.pgrp), session: Number(stat.session), startTime: stat.startTime,
      ...(sandbox !== undefined && dirname(sandbox) === root ? { sandbox } : {}),
      check: env.has(CHECK_MARK),
    });
  }
  return out;
}

/** The environment a process was started with (/proc/<pid>/environ); empty when unreadable. */
function readEnviron(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return env;
  }
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}
