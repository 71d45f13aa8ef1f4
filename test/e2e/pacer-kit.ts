import { join } from 'node:path';
import type { Test } from 'tap';
import { isGroupAlive, isProcessAlive, signalGroup } from '../../src/cluster/local/process-identity';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import type { RuntimeHooks } from '../../src/runtime/runtime-parts';
import { startLocal, type RunningPacer } from '../../src/runtime/start-local';
import { patientSignal } from '../harness/wait';
import { testAgentPorts } from '../harness/agent-ports';
import { waitFor, within } from './e2e-kit';

/*
 * Running pacer in this process for the e2e tests: startLocal on a temp dir and a free port,
 * closed (its tasks killed) when the test ends, with REST helpers; and the task processes a test
 * saw, killed when it ends.
 */

/**
 * The config of a pacer on 127.0.0.1, a free port, with its store and sandboxes in `dir`, and its
 * agents on this test process's own block of ports (test/harness/agent-ports.ts).
 */
export function e2eConfig(dir: string, overrides: Partial<PacerConfig> = {}): PacerConfig {
  return { ...defaultConfig(dir), port: 0, storePath: join(dir, 'pacer.db'), sandboxRoot: join(dir, 'sandboxes'), localAgentPorts: testAgentPorts(), ...overrides };
}

/**
 * The processes tasks ran as (pid = process group id, the local cluster starts each task in its
 * own group). Whatever is still alive when the test ends is SIGKILLed, so a failing test leaves
 * nothing behind.
 */
export class TaskProcesses {
  private readonly pids = new Set<number>();

  constructor(t: Test) {
    t.teardown(() => this.killAll());
  }

  /** Remember the pids of every task `pacer`'s cluster knows now; returns them by task id. */
  record(pacer: RunningPacer): Map<string, number> {
    const byTask = new Map<string, number>();
    for (const task of pacer.cluster.tasks()) {
      if (task.pid === undefined) continue;
      this.pids.add(task.pid);
      byTask.set(task.taskId, task.pid);
    }
    return byTask;
  }

  private async killAll(): Promise<void> {
    for (const pid of this.pids) signalGroup(pid, 'SIGKILL');
    await waitFor(() => [...this.pids].every((pid) => !isAlive(pid)), 'task processes to die after SIGKILL', 3000).catch(() => undefined);
  }
}

/**
 * Whether the task process `pid` (or anything in its process group) still runs. Zombies count as
 * gone: the tasks are children of this test process, and one detached by a closed pacer is only
 * reaped when this process exits, so a bare `process.kill(pid, 0)` would still succeed on it.
 */
export function isAlive(pid: number): boolean {
  return isProcessAlive(pid, undefined) || isGroupAlive(pid);
}

/**
 * A running pacer that is closed when the test ends (unless the test closed it first); a pacer
 * still running then also kills its tasks first, so nothing outlives the test.
 */
export async function startPacer(t: Test, config: PacerConfig, hooks: RuntimeHooks = {}): Promise<Pacer> {
  const running = await startLocal(config, hooks);
  const pacer = new Pacer(running);
  t.teardown(() => pacer.shutdown());
  return pacer;
}

/** A pacer started by the test, with the REST helpers the tests use. */
export class Pacer {
  private closed = false;

  constructor(readonly running: RunningPacer) {}

  get base(): string {
    return `http://${this.running.address}`;
  }

  /** `close()`, once; bounded. Tasks keep running. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await within(this.running.close(), 'pacer close()');
  }

  /** Kill every task this pacer's cluster supervises, then close. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    await this.running.cluster.shutdown();
    await this.close();
  }

  /** A request to the API; the body (if any) is sent as JSON. Answers the status and the parsed JSON body. */
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: JsonObject; text: string }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: patientSignal(),
    });
    const text = await res.text();
    let json: JsonObject = {};
    try {
      json = JSON.parse(text) as JsonObject;
    } catch {
      // not JSON (e.g. /ping): keep the text only
    }
    return { status: res.status, json, text };
  }
}

/** A JSON object as the tests read it. */
export type JsonObject = Record<string, unknown>;

