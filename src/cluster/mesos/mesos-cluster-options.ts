import type { MesosFormat } from './codec/mesos-model';
import type { MasterDetector } from './master-detector';

/**
 * Where the driver reports what it does not hand to the core (faults, refusals, reconnects).
 * `fields` are for machines: the subscription's state changes carry `subscription` (`subscribed`,
 * `resubscribing`, `stopped`).
 */
export interface MesosLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** What the core recovered from its store, which decides how the driver subscribes. */
export interface RecoveredFramework {
  /** The framework id saved by an earlier run (resubscribe with it: tasks keep running, §1.8). */
  readonly frameworkId?: string;
  /**
   * Instances of the core that were ever launched (src/runtime/launched-instances.ts); with any,
   * registering a NEW framework id is refused. Instances never launched do not count.
   */
  readonly launchedInstances: number;
}

/** How to build a {@link MesosCluster}. Only `detector` is required. */
export interface MesosClusterOptions {
  /** Finds the leading master before every (re)subscription. */
  readonly detector: MasterDetector;
  /** `application/x-protobuf` (default) or `application/json` for calls and events (§1.2). */
  readonly format?: MesosFormat;
  /** FrameworkInfo.name (Marathon's `--framework_name`, default `marathon`). */
  readonly frameworkName?: string;
  /** FrameworkInfo.user (Marathon's `--mesos_user`; default the user running pacer). */
  readonly user?: string;
  /** FrameworkInfo.failover_timeout in seconds (Marathon's default 604800 = one week, §1.8). */
  readonly failoverTimeoutSeconds?: number;
  /** The default role (`--mesos_role`): the roles subscribed before the core says otherwise. */
  readonly defaultRole?: string;
  /** TASK_KILLING_STATE capability (the `task_killing` feature). */
  readonly taskKilling?: boolean;
  /** GPU_RESOURCES capability (the `gpu_resources` feature). */
  readonly gpus?: boolean;
  /** FrameworkInfo.hostname (Marathon's `--hostname`; runtime/start-mesos.ts gives this machine's name by default). */
  readonly hostname?: string;
  /** FrameworkInfo.webui_url (Marathon's `--webui_url`, else derived from the hostname and the API's port). */
  readonly webuiUrl?: string;
  /** FrameworkInfo.principal (Marathon's `--mesos_authentication_principal`); defaults to `credentials.principal`. */
  readonly principal?: string;
  /**
   * Framework authentication: HTTP basic with this principal and secret on SUBSCRIBE and every
   * call (§1.1; Marathon's `--mesos_authentication_principal` / `--mesos_authentication_secret_file`).
   * A 401 from the master is final (`onFatal`): wrong credentials do not get better by retrying.
   */
  readonly credentials?: { readonly principal: string; readonly secret: string };
  /** First reconnect delay (default 500 ms); doubles per failed attempt. */
  readonly backoffInitialMs?: number;
  /** Reconnect delay cap (default 15 s, §1.7). */
  readonly backoffMaxMs?: number;
  /** Missed heartbeat intervals before the stream is taken for dead (Marathon's default 5, §1.7). */
  readonly heartbeatFailureThreshold?: number;
  /** How long to wait for SUBSCRIBED (and the 200) before retrying (default 75 s, §1.7). */
  readonly subscribeTimeoutMs?: number;
  /** Timeout of every other call, for its whole answer (default 75 s, §1.7; transport/post-call.ts). */
  readonly callTimeoutMs?: number;
  /** 307 redirects followed in a row before backing off (default 3, §1.9). */
  readonly maxRedirects?: number;
  /**
   * Calls in flight at once (default 8), each on its own keep-alive connection: a call the master
   * never answers holds up only the calls ordered behind it (same task, offer, or the role calls),
   * not the others, until its timeout (or until the subscription is lost: calls in flight are
   * then given up at once).
   */
  readonly maxConcurrentCalls?: number;
  /** KILL/ACKNOWLEDGE calls held while disconnected (default 10000; the oldest are dropped beyond). */
  readonly maxHeldCalls?: number;
  /**
   * Calls waiting to be sent while subscribed (default 100000): beyond it the oldest waiting KILL
   * and ACKNOWLEDGE calls are dropped, which the cluster repeats (transport/call-outbox.ts).
   */
  readonly maxQueuedCalls?: number;
  /** ERROR events of unknown meaning in a row before the driver gives up (default 5). */
  readonly maxConsecutiveErrors?: number;
  /** Retries of an idempotent call that got no answer (default 3). */
  readonly maxCallRetries?: number;
  /** Delay before the first such retry (default 1 s); doubles per retry. */
  readonly callRetryInitialMs?: number;
  readonly logger?: MesosLogger;
  /**
   * The driver gave up for good: the master sent an ERROR that resubscribing cannot fix (framework
   * removed, failed over to another scheduler, every role refused, not authorized; the message
   * says what to do), refused an UPDATE_FRAMEWORK for all of its roles, or a new framework id was assigned
   * while instances exist. The driver is stopped when this is called; pacer should stop too
   * (Marathon exits). The handler says why (the driver does not log it then; without a handler it
   * logs `giving up: …` as a warning).
   */
  readonly onFatal?: (error: Error) => void;
}

export const DEFAULTS = {
  format: 'protobuf' as MesosFormat,
  frameworkName: 'marathon',
  failoverTimeoutSeconds: 604_800,
  defaultRole: '*',
  backoffInitialMs: 500,
  backoffMaxMs: 15_000,
  heartbeatFailureThreshold: 5,
  subscribeTimeoutMs: 75_000,
  callTimeoutMs: 75_000,
  maxRedirects: 3,
  maxHeldCalls: 10_000,
  maxQueuedCalls: 100_000,
  maxConcurrentCalls: 8,
  maxConsecutiveErrors: 5,
  maxCallRetries: 3,
  callRetryInitialMs: 1000,
  /** Used when SUBSCRIBED carries no interval (current masters always send 15, §1.7). */
  heartbeatIntervalSeconds: 15,
} as const;
