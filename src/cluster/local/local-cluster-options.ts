import type { PortRange } from '../../scheduler/model/resources';

/** A local agent's fault domain (a Mesos agent's `--domain`), which `@region` and `@zone` constraints read. */
export interface AgentDomain {
  readonly region: string;
  readonly zone: string;
}

/** One agent of the local cluster: a slice of this host offered as if it were a Mesos agent. */
export interface LocalAgentOptions {
  /** Stable id (default `local-agent-<n>`, n counting from 1 in list order). Keep it across restarts. */
  readonly agentId?: string;
  /** Default `127.0.0.1`: tasks and health checks address the agent by this name. */
  readonly hostname?: string;
  readonly cpus: number;
  readonly memMib: number;
  readonly diskMib: number;
  readonly gpus?: number;
  /** Inclusive host-port range offered. Agents on the same hostname must not overlap. */
  readonly ports: PortRange;
  /**
   * Attributes as `--attributes` of a Mesos agent gives them, as texts typed as Mesos types them
   * (agent-attribute-text.ts: `10` a scalar, `[1-5]` ranges, `{a,b}` a set, else text); constraints match on them.
   */
  readonly attributes?: Readonly<Record<string, string>>;
  readonly region?: string;
  readonly zone?: string;
}

/** How to build a {@link LocalCluster}. Only `sandboxRoot` is required. */
export interface LocalClusterOptions {
  /**
   * A count of identical agents sharing this host (default 1; each gets an equal share of the
   * host's cpus and memory, 10 GiB of disk and its own share of `ports`), or a list.
   */
  readonly agents?: number | readonly LocalAgentOptions[];
  /**
   * The inclusive host-port range a count of agents shares, split evenly among them (default
   * 31000 upward, 1000 ports per agent; `--local_agent_ports`). Two pacers on one host need
   * ranges that do not overlap, or a task of one may find its port taken by a task of the other.
   * Ignored when `agents` is a list.
   */
  readonly ports?: PortRange;
  /**
   * Attributes of a count of agents (`--local_agent_attributes`), as texts: one list for every
   * agent, or one per agent in order (agent n gets the n-th). Ignored when `agents` is a list.
   */
  readonly agentAttributes?: readonly Readonly<Record<string, string>>[];
  /**
   * Fault domains of a count of agents (`--local_agent_domains`): one for every agent, or one per
   * agent in order. Ignored when `agents` is a list (each gives its own `region` and `zone`).
   */
  readonly agentDomains?: readonly AgentDomain[];
  /** Directory holding one sandbox directory per task (created when missing). */
  readonly sandboxRoot: string;
  /**
   * How often free resources are offered (default 1000 ms, Mesos's `--allocation_interval`). Rounds
   * also run at once after a revive and when the launcher is about to run out of work, so this
   * paces only offers held back by a refuse filter.
   */
  readonly offerIntervalMs?: number;
  /** Report TASK_KILLING during a kill's grace period (the `task_killing` feature, service-spec §3). */
  readonly taskKilling?: boolean;
  /** Where launched tasks are recorded for restart survival (default `<sandboxRoot>/local-cluster.json`). */
  readonly stateFile?: string;
  /** How often processes adopted after a restart are polled for exit (default 500 ms). */
  readonly exitPollMs?: number;
  /**
   * How long a finished task's sandbox is kept after its terminal status was handed over (default
   * one week, a Mesos agent's `--gc_delay`; `--local_sandbox_gc_delay`). See sandbox-gc.ts.
   */
  readonly sandboxGcDelayMs?: number;
  /** At most this many finished sandboxes are kept, the oldest removed first (default 1000; `--local_sandbox_keep`). */
  readonly sandboxKeep?: number;
  /** Where the cluster says what it did on its own (the start-up sweep of the sandboxes, a sandbox it could not remove); silent when absent. */
  readonly log?: (line: string) => void;
}

export const DEFAULT_OFFER_INTERVAL_MS = 1000;
export const DEFAULT_EXIT_POLL_MS = 500;
export const DEFAULT_HOSTNAME = '127.0.0.1';
/** Default `--local_sandbox_gc_delay`: one week, as a Mesos agent's `--gc_delay`. */
export const DEFAULT_SANDBOX_GC_DELAY_MS = 7 * 24 * 3600 * 1000;
/** Default `--local_sandbox_keep`: the most finished sandboxes kept. */
export const DEFAULT_SANDBOX_KEEP = 1000;
