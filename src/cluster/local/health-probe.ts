import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { healthCheckProtocolOf } from '../../scheduler/model/health-check';
import type { ResolvedAgentCheck } from '../../scheduler/model/launch';
import { signalGroup } from './process-identity';
import { CHECK_MARK } from './sandbox-processes';

/** Where a check runs: the task's own environment and sandbox (COMMAND checks). */
export interface ProbeContext {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** Agent-run checks address the task on the loopback interface (mesos-v1-scheduler-api.md §5.2, §7.5). */
const CHECK_HOST = '127.0.0.1';

/**
 * Runs one agent-run check and resolves whether it passed — never rejects. HTTP(S) passes on a
 * status in [200, 399] (service-spec §2.5 rule 1; certificates are not verified, rule 2), TCP when
 * the connection opens, COMMAND when the shell command exits 0 (§5.2). A check still running after
 * `timeoutMs` (0: no limit, §5.2) or when `signal` aborts fails; a command check's process group
 * is then killed.
 */
export function runProbe(resolved: ResolvedAgentCheck, ctx: ProbeContext, signal: AbortSignal): Promise<boolean> {
  const check = resolved.check;
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = check.timeoutMs > 0 ? setTimeout(onAbort, check.timeoutMs) : undefined;
  if (signal.aborted) limit.abort();
  return probeOf(resolved, ctx, limit.signal).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

function probeOf(resolved: ResolvedAgentCheck, ctx: ProbeContext, signal: AbortSignal): Promise<boolean> {
  const { check, port } = resolved;
  // A state file written before the model used Marathon's MESOS_* names holds AGENT_* ones.
  const protocol = healthCheckProtocolOf(check.protocol) ?? check.protocol;
  if (protocol === 'COMMAND') return check.command === undefined ? Promise.resolve(false) : commandProbe(check.command, ctx, signal);
  if (port === undefined || signal.aborted) return Promise.resolve(false);
  if (protocol === 'TCP' || protocol === 'MESOS_TCP') return tcpProbe(port, signal);
  const https = protocol === 'HTTPS' || protocol === 'MESOS_HTTPS';
  return httpProbe(https, port, check.path, signal);
}

function httpProbe(https: boolean, port: number, path: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const options = { host: CHECK_HOST, port, path, method: 'GET', agent: false as const, signal };
    const onResponse = (res: { statusCode?: number; destroy(): void }): void => {
      const status = res.statusCode ?? 0;
      // Judged on the status line; the body is not read, and the connection goes with it: drained
      // instead (`resume()`), an answer that never ends (an event stream as the checked path) kept
      // one connection open per check, for good, once the check's timeout had been cleared.
      res.destroy();
      resolve(status >= 200 && status <= 399);
    };
    const req = https ? httpsRequest({ ...options, rejectUnauthorized: false }, onResponse) : httpRequest(options, onResponse);
    req.on('error', () => resolve(false));
    req.end();
  });
}

function tcpProbe(port: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: CHECK_HOST, port });
    const done = (ok: boolean): void => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(ok);
    };
    const onAbort = (): void => done(false);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function commandProbe(command: string, ctx: ProbeContext, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // Marked, so that a check left running when pacer died is not taken for its task (sandbox-sweep.ts).
      child = spawn('/bin/sh', ['-c', command], { cwd: ctx.cwd, env: { ...ctx.env, [CHECK_MARK]: '1' }, detached: true, stdio: 'ignore' });
    } catch {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      resolve(code === 0);
    });
  });
}
