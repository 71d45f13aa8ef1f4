import { spawn, type ChildProcess } from 'node:child_process';
import type { Test } from 'tap';
import { nodeArgsFor } from '../harness/node-entry';
import { agentPortsArgs } from '../harness/agent-ports';
import { REPO_ROOT } from '../harness/repo-path';
import { patientSignal, waitFor, within } from '../harness/wait';

/**
 * Running `src/main.ts` (the `npm start` entry) as a child process, for the e2e tests: spawn it
 * with flags and environment (compiled when the tests run compiled, else through tsx: see
 * test/harness/node-entry.ts), read its output, wait (bounded, test/harness/wait.ts) for its
 * startup line or its exit. A process still running when its test ends is SIGKILLed.
 */

const STARTUP_LINE = /Marathon API on http:\/\/127\.0\.0\.1:(\d+) \((?:local cluster, store .+?; tasks keep running after Ctrl-C|simulated cluster paced in real time, state in memory)\); Ctrl-C stops/;

/** A spawned `src/main.ts …` with its output so far and its exit. */
export interface MainProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `env` for a process that the test ends with SIGKILL whatever happens (it kills it, or leaves it to
 * {@link spawnMain}'s teardown): such a process never writes its coverage (node writes it at exit),
 * so collecting it (NODE_V8_COVERAGE, inherited from c8) would only slow it, by about a third of
 * its CPU. Empty, not absent: node's spawn puts back a NODE_V8_COVERAGE that the child's env lacks.
 */
export const KILLED_UNCOVERED: Readonly<Record<string, string>> = { NODE_V8_COVERAGE: '' };

/** Our environment without any PACER_* variable, plus `env`. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PACER_')) out[k] = v;
  return { ...out, ...env };
}

/**
 * Spawns `src/main.ts ...args` in the repository, without inherited PACER_* variables; its local
 * agents on this test process's own block of ports (test/harness/agent-ports.ts) unless `args` or
 * `env` name a range or the cluster is `sim`.
 */
export function spawnMain(t: Test, args: readonly string[], env: Record<string, string> = {}): MainProcess {
  // `--cluster sim` has no local agents (and warns about the flag): no range for it.
  const sim = args.some((a, i) => a === '--cluster=sim' || (a === '--cluster' && args[i + 1] === 'sim'));
  const named = args.some((a) => a.startsWith('--local_agent_ports') || a.startsWith('--local-agent-ports')) || 'PACER_LOCAL_AGENT_PORTS' in env;
  const ports = sim || named ? [] : agentPortsArgs();
  const child = spawn(process.execPath, [...nodeArgsFor('src/main.ts'), ...ports, ...args], {
    cwd: REPO_ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await within(exited, 'the killed main process to exit');
    }
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits (bounded) for the process to exit; a timeout's error carries what it printed on stderr. */
export async function exitOf(main: MainProcess, what: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  try {
    return await within(main.exited, what);
  } catch (err) {
    throw new Error(`${(err as Error).message}; its stderr so far:\n${main.stderr()}`);
  }
}

/** Wait (bounded) for the startup line; answers the port it names. */
export async function startupPort(main: MainProcess): Promise<number> {
  const match = await waitFor(() => STARTUP_LINE.exec(main.stderr()) ?? (main.child.exitCode !== null && 'exited'), 'the startup line');
  if (match === 'exited') throw new Error(`main exited early: ${main.stderr()}`);
  return Number(match[1]);
}

/** GET /ping on 127.0.0.1:`port` (bounded): the body. */
export async function ping(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/ping`, { signal: patientSignal() });
  return res.text();
}

/** Spawns main with `args` and waits (bounded) for it to exit: the exit code and output. */
export async function runMain(t: Test, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const main = spawnMain(t, args, env);
  const { code } = await exitOf(main, `main ${args.join(' ')}`);
  return { code, stdout: main.stdout(), stderr: main.stderr() };
}


/** The log records a main process wrote on stderr (JSON lines: its stderr is not a terminal); other lines are skipped. */
export function logRecords(stderr: string): Record<string, unknown>[] {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}
