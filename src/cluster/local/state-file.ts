import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ResolvedAgentCheck } from '../../scheduler/model/launch';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { ScalarResources } from '../../scheduler/model/resources';
import type { TaskState } from '../../scheduler/model/task-state';

/** One launched task as recorded for restart survival. */
export interface TaskRecord {
  readonly taskId: string;
  readonly runSpecId: string;
  readonly instanceId: string;
  readonly containerName?: string;
  /** Process id (= process group id: tasks lead their own group); undefined until started. */
  pid?: number;
  /** /proc start time of `pid`, to tell the task from a process that recycled its pid. */
  startTime?: string;
  readonly sandbox: string;
  readonly hostPorts: readonly number[];
  readonly resources: ScalarResources;
  readonly killGracePeriodMs: number;
  readonly launchedAtMs: number;
  readonly healthCheck?: ResolvedAgentCheck;
  /** The task's environment (command health checks run with it). */
  readonly env: Readonly<Record<string, string>>;
  /** Latest state on the agent. */
  state: TaskState;
  healthy?: boolean;
}

/** One executor: a single task (LAUNCH) or a task group (LAUNCH_GROUP), with its allocation. */
export interface ExecutorRecord {
  /** Unique key (its first task id): Marathon reuses executor ids across relaunches of an instance. */
  readonly executorKey: string;
  readonly executorId: string;
  readonly agentId: string;
  readonly group: boolean;
  readonly allocation: readonly OfferedPool[];
  /** Set while a kill runs: when SIGKILL follows the SIGTERM. */
  killDeadlineMs?: number;
  readonly tasks: TaskRecord[];
}

/** The whole state file. */
export interface LocalClusterState {
  readonly version: 1;
  readonly frameworkId: string;
  readonly executors: ExecutorRecord[];
}

/**
 * The state file of the local cluster: the framework id and every live executor. Written
 * synchronously on each change (a temporary file renamed over the old one, so a crash leaves
 * either the old or the new content, never half of one).
 */
export class StateFile {
  constructor(readonly path: string) {}

  /** The saved state; undefined when there is no file yet. Throws on a file that is not ours. */
  load(): LocalClusterState | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const parsed = JSON.parse(text) as Partial<LocalClusterState> | null;
    if (parsed === null || parsed.version !== 1 || typeof parsed.frameworkId !== 'string' || !Array.isArray(parsed.executors)) {
      throw new Error(`${this.path} is not a local cluster state file (version 1)`);
    }
    return parsed as LocalClusterState;
  }

  save(state: LocalClusterState): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(state, null, 1)}\n`);
    renameSync(tmp, this.path);
  }
}
