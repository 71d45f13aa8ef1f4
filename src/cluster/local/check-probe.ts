import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { CheckStatus } from '../../scheduler/model/checks';
import type { LaunchCheck, LaunchCommand } from '../../scheduler/model/launch';
import type { ProbeContext } from './health-probe';
import { signalGroup } from './process-identity';
import { CHECK_MARK } from './sandbox-processes';

/** Checks address the task on the loopback interface, as Mesos's checker does (mesos-v1-scheduler-api.md §5.2, §7.5). */
const CHECK_HOST = '127.0.0.1';

/**
 * Runs a task's `check` once and resolves the status a Mesos executor would report for it
 * (mesos-v1-scheduler-api.md §5.5; Mesos's checker) — never rejects:
 * - HTTP: GET of the path (`/` without one) on the host port; the answer's status code, whatever
 *   it is (a check is reported, never judged);
 * - TCP: whether a connection to the host port opens (`succeeded` true or false);
 * - COMMAND: the command's exit code (through `/bin/sh -c`, or the argv without a shell), in the
 *   task's environment and sandbox;
 * and the kind's empty status — no result — when the check times out (`timeoutMs`, 0: no limit),
 * is aborted, or cannot run at all (an HTTP connection refused, a command that cannot start, one
 * killed by a signal), as Mesos's checker reports an error. A command check's process group is
 * killed when it ends or times out.
 */
export function runCheck(check: LaunchCheck, ctx: ProbeContext, signal: AbortSignal): Promise<CheckStatus> {
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = check.timeoutMs > 0 ? setTimeout(onAbort, check.timeoutMs) : undefined;
  if (signal.aborted) limit.abort();
  return checkOf(check, ctx, limit.signal).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

function checkOf(check: LaunchCheck, ctx: ProbeContext, signal: AbortSignal): Promise<CheckStatus> {
  switch (check.kind) {
    case 'http':
      return httpCheck(check.port, check.path ?? '/', signal).then((statusCode) => ({ http: statusCode === undefined ? {} : { statusCode } }));
    case 'tcp':
      return tcpCheck(check.port, signal).then((succeeded) => ({ tcp: succeeded === undefined ? {} : { succeeded } }));
    case 'command':
      return commandCheck(check.command, ctx, signal).then((exitCode) => ({ command: exitCode === undefined ? {} : { exitCode } }));
  }
}

function httpCheck(port: number, path: string, signal: AbortSignal): Promise<number | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const req = httpRequest({ host: CHECK_HOST, port, path, method: 'GET', agent: false, signal }, (res) => {
      // The status code is the result: the body is not read (an answer that streams on would keep the connection).
      res.destroy();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

function tcpCheck(port: number, signal: AbortSignal): Promise<boolean | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = connect({ host: CHECK_HOST, port });
    const done = (result: boolean | undefined): void => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = (): void => done(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function commandCheck(command: LaunchCommand, ctx: ProbeContext, signal: AbortSignal): Promise<number | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let child: ChildProcess;
    const [file, args] = 'shell' in command ? ['/bin/sh', ['-c', command.shell]] : [command.argv[0] ?? '', command.argv.slice(1)];
    try {
      // Marked, so that a check left running when pacer died is not taken for its task (sandbox-sweep.ts).
      child = spawn(file, args, { cwd: ctx.cwd, env: { ...ctx.env, [CHECK_MARK]: '1' }, detached: true, stdio: 'ignore' });
    } catch {
      resolve(undefined);
      return;
    }
    const onAbort = (): void => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      resolve(undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(undefined);
    });
    child.once('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      resolve(code ?? undefined);
    });
  });
}
