import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/runtime/package-root';

/** The line pacer logs once its Marathon API serves (the address it bound, `--port 0` included). */
const STARTUP = /Marathon API on http:\/\/(127\.0\.0\.1:\d+) \(/;

/** A pacer process a benchmark started. */
export interface PacerProcess {
  readonly child: ChildProcess;
  /** `127.0.0.1:<port>` from the STARTUP line; rejects when pacer exits or does not serve in time. */
  readonly address: Promise<string>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
  /** Everything it wrote to stderr so far (its log). */
  stderr(): string;
  /** Sends `signal` (default SIGTERM), SIGKILL after 10 s, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** How to start one pacer for a benchmark. */
export interface PacerProcessOptions {
  /** pacer's own flags (the helper adds none: pass `--port 0`, `--store`, `--sandbox`, …). */
  readonly args: readonly string[];
  /** Node's flags before the entry point (e.g. `--cpu-prof`). */
  readonly nodeArgs?: readonly string[];
  /** How long pacer may take to log its STARTUP line (generous: the machine may be loaded). */
  readonly startTimeoutMs: number;
}

/**
 * Starts pacer's entry point in a child process — `src/main.ts` through tsx when the benchmark runs
 * from source, the compiled `main.js` of the same tree otherwise (dist/bench/lib → dist/src,
 * dist/tests/bench/lib → dist/tests/src) — with no `PACER_*` variable of this environment, stderr
 * piped, and parses the address from its STARTUP line. The one way the benchmarks start pacer
 * (bench/launch.ts, bench/failover.ts).
 */
export function startPacerProcess(options: PacerProcessOptions): PacerProcess {
  const fromSource = __filename.endsWith('.ts');
  const repo = packageRoot(__dirname);
  const entry = fromSource ? ['--import', 'tsx', join(repo, 'src', 'main.ts')] : [join(__dirname, '..', '..', 'src', 'main.js')];
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PACER_')) env[k] = v;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...options.args], { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const address = new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
      const m = STARTUP.exec(err);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`pacer exited before serving (${exitOf(child)}): ${stderrReason(err)}`)));
    setTimeout(() => reject(new Error(`pacer did not start within ${options.startTimeoutMs / 1000} s: ${stderrReason(err)}`)), options.startTimeoutMs).unref();
  });
  address.catch(() => undefined);
  return {
    child, address, exited, stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether a child has ended, by an exit or a signal (an OOM kill leaves `exitCode` null). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** How a child exited: `exit 1`, `SIGKILL`, or `running`. */
export function exitOf(child: ChildProcess): string {
  if (child.signalCode !== null) return child.signalCode;
  return child.exitCode === null ? 'running' : `exit ${child.exitCode}`;
}

/** How many of pacer's last stderr lines {@link stderrReason} adds after its error line, and how much of each. */
const TAIL_LINES = 3;
const TAIL_LINE_CHARS = 200;

/**
 * Why pacer failed, from its stderr, for one problem line: its own error line first — the first
 * line that starts with `pacer:` (`pacer: unknown option --bogus_flag`, `pacer: cannot start: …`,
 * which main.ts writes before its usage text or after its log), or, without one, the first line
 * that is not empty — then its last few other lines (each cut short), which tell what it was
 * doing. The end of stderr alone would be the end of a usage text or an unrelated log record.
 */
export function stderrReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  if (lines.length === 0) return '(nothing on stderr)';
  const cause = lines.find((l) => l.startsWith('pacer:')) ?? lines[0];
  const tail = lines.filter((l) => l !== cause).slice(-TAIL_LINES).map((l) => l.trim()).map((l) => (l.length > TAIL_LINE_CHARS ? `${l.slice(0, TAIL_LINE_CHARS)}…` : l));
  return tail.length === 0 ? cause : `${cause} (its last lines: ${tail.join(' | ')})`;
}
