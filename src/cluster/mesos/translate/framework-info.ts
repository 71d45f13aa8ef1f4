import type { FrameworkCapabilityType, FrameworkInfo } from '../codec/mesos-model';

/** What pacer registers with. */
export interface FrameworkOptions {
  readonly name: string;
  /** Unix user tasks run as (required over HTTP, §2.1; `root` needs the master's `--root_submissions`). */
  readonly user: string;
  /** Set on every subscription after the first (§1.8). */
  readonly frameworkId?: string;
  /** How long the master keeps pacer's tasks after a disconnect (Marathon: 604800, one week). */
  readonly failoverTimeoutSeconds: number;
  /** Every role pacer launches for (the default role and the group roles). */
  readonly roles: readonly string[];
  /** Ask for TASK_KILLING updates (Marathon's `task_killing` feature). */
  readonly taskKilling: boolean;
  /** Ask for offers from GPU agents (Marathon's `gpu_resources` feature). */
  readonly gpus: boolean;
  readonly hostname?: string;
  readonly webuiUrl?: string;
  readonly principal?: string;
}

/**
 * The FrameworkInfo of SUBSCRIBE and UPDATE_FRAMEWORK (mesos-v1-scheduler-api.md §2.1), with the
 * capabilities Marathon registers: MULTI_ROLE, PARTITION_AWARE, REGION_AWARE, plus
 * TASK_KILLING_STATE and GPU_RESOURCES when enabled. `roles` sorted and without duplicates
 * (duplicates are refused, §2.1), and the deprecated `role` never set (MULTI_ROLE + `role` is an
 * ERROR, §9). `checkpoint` is always true: without it an agent disconnect loses every task at once,
 * even for a partition-aware framework (§7.4).
 */
export function frameworkInfo(opts: FrameworkOptions): FrameworkInfo {
  const capabilities: FrameworkCapabilityType[] = ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE'];
  if (opts.taskKilling) capabilities.push('TASK_KILLING_STATE');
  if (opts.gpus) capabilities.push('GPU_RESOURCES');
  const info: FrameworkInfo = {
    user: opts.user,
    name: opts.name,
    failoverTimeout: opts.failoverTimeoutSeconds,
    checkpoint: true,
    capabilities: capabilities.map((type) => ({ type })),
    roles: [...new Set(opts.roles)].sort(),
  };
  if (opts.frameworkId !== undefined) info.id = { value: opts.frameworkId };
  if (opts.hostname !== undefined) info.hostname = opts.hostname;
  if (opts.webuiUrl !== undefined) info.webuiUrl = opts.webuiUrl;
  if (opts.principal !== undefined) info.principal = opts.principal;
  return info;
}
