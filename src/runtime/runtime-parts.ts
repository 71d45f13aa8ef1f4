import { makeDirs, whyNoDir } from './make-dirs';
import { loggingDriver } from './logging-driver';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig, ApiDeps, MesosFrameworkFacts, ZookeeperFacts } from '../api/api-deps';
import { ApiAuthentication } from '../api/auth/api-authentication';
import { EventStreamHub } from '../api/events/event-stream-hub';
import { buildServer } from '../api/server';
import type { MesosDriverMetrics } from '../cluster/mesos/driver-metrics';
import type { ClusterDriver } from '../scheduler/ports/cluster-driver';
import type { Clock } from '../scheduler/ports/clock';
import type { Store } from '../scheduler/ports/store';
import { Scheduler, type SchedulerOptions } from '../scheduler/index';
import { durableDriver } from '../store/durable-driver';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { ApiListeners, type ListenerAddress } from './api-listeners';
import type { PacerConfig } from './config';
import { HttpProber } from './http-prober';
import { pacerBuild } from './pacer-build';
import { RealTimeLoop, type LoopObserver } from './real-time-loop';
import { haltingHandler, reportCoreFailure, type CoreFailureHandler } from './core-failure';
import { DecisionLog } from './decision-log';
import type { PacerLog } from './pacer-log';
import type { RuntimeStore } from './runtime-store';
import type { LeaderDuties } from '../ha/leadership';
import { StoreLock } from './store-lock';
import { refuseChangesWhileUnwritable } from './store-write-refusal';
import { keepStoreFile } from './restore-store-file';
import type { FreeBytes } from '../store/sqlite/store-write-guard';
import { FlightRecorder } from './recording/flight-recorder';
import { dumpRingKeeping } from './recording/ring-dump-dir';
import { LastOffers } from '../whatif/last-offers';
import { WhatIf } from '../whatif/what-if';

/**
 * What every real-time composition shares (`start-local.ts`, `start-mesos.ts`): the store file
 * (locked to this process), the loop (which is also the core's timers and clock), the log and
 * what a failure of the core does. `release()` undoes it all.
 */
export interface RuntimeBase {
  readonly store: RuntimeStore;
  readonly loop: RealTimeLoop;
  readonly clock: Clock;
  readonly log: PacerLog;
  /** The core failed (loop, API): production's handler logs the input and stops the process. */
  readonly onCoreFailure: CoreFailureHandler;
  /** The flight recorder: the always-on ring, and `--record DIR` (docs/architecture.md, "Recording and replay"). */
  readonly recorder: FlightRecorder;
  /** The last offer seen per agent (a loop observer): what-if forks build their agents from it (src/whatif). */
  readonly lastOffers: LastOffers;
  release(): void;
  /**
   * After a start that failed before serving: {@link release}, then removes the store file (and
   * SQLite's `-wal`/`-shm` beside it) when this start created it. Nothing was accepted (the API
   * never listened), so nothing is lost; a port in use or a bad `--sandbox` no longer leaves an
   * empty store behind. A store that was there before, or `opened` (ZooKeeper), is kept as it is.
   */
  discard(): void;
}

/** What a composition may be given besides the config (main.ts gives the log; tests may redirect both). */
export interface RuntimeHooks {
  /** Default: a logger that writes nothing (main.ts passes the real one). */
  readonly log?: PacerLog;
  /** Default: log the failure and end the process (runtime/core-failure.ts). */
  readonly onCoreFailure?: CoreFailureHandler;
  /**
   * The input hook: sees every input the core handles — the cluster driver's, the probes', the
   * core's timers and the API's commands — with the instant the core reads, from the first one on
   * (a flight recorder is one observer; docs/architecture.md, "One loop").
   */
  readonly inputs?: LoopObserver;
  /** How the SQLite store measures its file system's free space (`--store_min_free`); tests fake a full disk with it. Default `statfs`. */
  readonly storeFreeBytes?: FreeBytes;
}

/**
 * Opens the store (lock first, so a second pacer fails before touching it) and the loop. The store
 * is the SQLite file at `--store`, or `opened` (the ZooKeeper store a leader opened, src/ha): the
 * lock next to `--store` is taken either way, since it also guards this host's sandboxes and
 * ports. `release()` closes `opened` too.
 */
export function openRuntime(config: PacerConfig, log: PacerLog, onCoreFailure: CoreFailureHandler = haltingHandler(reportCoreFailure(log)), opened?: RuntimeStore, storeFreeBytes?: FreeBytes): RuntimeBase {
  let lock: StoreLock;
  try {
    makeStoreDir(dirname(config.storePath));
    lock = StoreLock.acquire(`${config.storePath}.lock`);
  } catch (err) {
    opened?.close();
    throw err;
  }
  // Read under the lock, before the open creates it: only a file this start made is removed by `discard`.
  const storeIsNew = opened === undefined && !existsSync(config.storePath);
  let store: RuntimeStore;
  try {
    store = opened ?? SqliteStore.open(config.storePath, {
      synchronous: config.storeSynchronous, minFreeBytes: config.storeMinFreeBytes,
      ...(storeFreeBytes === undefined ? {} : { freeBytes: storeFreeBytes }),
    });
  } catch (err) {
    lock.release();
    throw err;
  }
  let recorder: FlightRecorder;
  try {
    recorder = new FlightRecorder({
      cluster: config.cluster === 'mesos' ? 'mesos' : 'local', options: schedulerOptionsOf(config), ringInputs: config.recordRingInputs,
      ...(config.recordDir === undefined ? {} : { dir: config.recordDir }),
    });
  } catch (err) {
    store.close();
    lock.release();
    throw err;
  }
  // The file `--record` writes is named: after a restart it is the first free recording-N.jsonl.
  if (recorder.path !== undefined) {
    log.child({ component: 'pacer' }).info({ recording: recorder.path }, `flight recorder: every input written to ${recorder.path} (replay: npm run sim -- replay ${recorder.path})`);
  }
  const keeper = keepStoreFile(store, config.storePath, lock, log);
  const refuseChanges = refuseChangesWhileUnwritable(store, log);
  const beforeCommand = (): void => {
    keeper.check();
    refuseChanges();
  };
  const loop = new RealTimeLoop({ atomically: (fn) => store.atomically(fn), beforeCommand, onFailure: onCoreFailure });
  // `removeStore` (a failed start's store this start created): removed before the lock is let go,
  // so no other pacer can have opened it meanwhile, and not written again by the keeper.
  const close = (removeStore: boolean): void => {
    loop.close();
    recorder.close();
    keeper.stop();
    if (!removeStore) keeper.check();
    store.close();
    if (removeStore) for (const suffix of STORE_FILE_SUFFIXES) rmSync(`${config.storePath}${suffix}`, { force: true });
    lock.release();
  };
  return {
    store, loop, clock: loop, log, onCoreFailure, recorder, lastOffers: new LastOffers(),
    release: () => close(false),
    discard: () => close(storeIsNew),
  };
}

/** The store file and what SQLite keeps beside it (write-ahead log, shared memory, rollback journal). */
const STORE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;

/**
 * What a leader's duties (src/ha) carry besides the core: the store's durability (the API holds
 * replies to changes until it is written) and the flight recorder's ring (`POST /pacer/v1/recording`
 * on the leader, written next to `--store` as without `--zk`).
 */
export function dutiesExtras(config: PacerConfig, base: RuntimeBase, scheduler: Scheduler): Pick<LeaderDuties, 'durability' | 'recording' | 'whatIf'> {
  return {
    ...(base.store.durability === undefined ? {} : { durability: base.store.durability }),
    recording: { dump: () => dumpRingKeeping(config.storePath, (dir) => base.recorder.dump(dir)) },
    whatIf: whatIfOf(base, scheduler),
  };
}

/** What-if questions (issue 18) over a fork of this runtime's live core and the last offer of each agent. */
function whatIfOf(base: RuntimeBase, scheduler: Scheduler): WhatIf {
  return new WhatIf({ scheduler, lastOffers: () => base.lastOffers.all(), nowMs: () => base.clock.nowMs() });
}

/**
 * The core on real ports — the loop is its clock and timers — built (it recovers from `store`
 * while being built), its decisions logged, `inputs` (the input hook) observing the loop, then
 * attached to the loop. With a store that writes behind, every call to `driver` waits until the
 * store writes made before it are durable (src/store/durable-driver.ts: no ACCEPT before its
 * instances are stored).
 */
export function startScheduler(config: PacerConfig, base: RuntimeBase, driver: ClusterDriver, store: Store = base.store, inputs?: LoopObserver): Scheduler {
  const durability = base.store.durability;
  // At --log_level debug, a record of every call on the cluster (logging-driver.ts), as it is sent.
  const logged = loggingDriver(driver, base.log);
  const scheduler = new Scheduler(base.recorder.wrap({
    clock: base.loop, random: { next: Math.random }, timers: base.loop, store,
    // A store that writes behind (ZooKeeper): no cluster call before the writes made ahead of it are durable.
    driver: durability === undefined ? logged : durableDriver(logged, durability),
    prober: new HttpProber((observation) => base.loop.post({ type: 'probeResult', observation })),
  }), schedulerOptionsOf(config));
  base.recorder.attach(scheduler);
  const decisions = new DecisionLog(scheduler, base.loop, base.log);
  base.loop.observe(base.recorder);
  base.lastOffers.readInstancesFrom((instanceId) => scheduler.instance(instanceId));
  base.loop.observe(base.lastOffers);
  if (inputs !== undefined) base.loop.observe(inputs);
  base.loop.observe({ afterInput: () => decisions.afterInput() });
  base.loop.attach(scheduler);
  reportSetAside(scheduler, base.log);
  return scheduler;
}

/** The core's options from the flags (`--cluster sim` takes them from its workload instead). */
export function schedulerOptionsOf(config: PacerConfig): Partial<SchedulerOptions> {
  return {
    defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
    maxRunningDeployments: config.maxRunningDeployments, maxTotalInstances: config.maxTotalInstances, taskKilling: config.features.includes('task_killing'),
    gpuRestricted: config.gpuSchedulingBehavior === 'restricted',
    maintenanceMode: config.maintenanceMode, drainingMs: config.drainingSeconds * 1000,
    ...(config.unhealthyKillFloor === undefined ? {} : { unhealthyKillFloor: config.unhealthyKillFloor }),
    localPortMin: config.localPortMin, localPortMax: config.localPortMax,
    maxInstancesPerOffer: config.maxInstancesPerOffer, declineRefuseMs: config.declineOfferDurationMs, acceptRefuseMs: config.acceptRefuseDurationMs,
    launchesPerInput: config.launchesPerInput, launchesPerOfferBatch: config.launchesPerOfferBatch, instancesPerInput: config.instancesPerInput,
  };
}

/** One warning per stored record the core set aside while recovering (issue 11; docs/limits.md). */
function reportSetAside(scheduler: Scheduler, log: PacerLog): void {
  const store = log.child({ component: 'store' });
  for (const r of scheduler.setAsideRecords()) {
    const what = r.version === undefined ? `${r.kind} ${r.key}` : `${r.kind} ${r.key} ${r.version}`;
    store.warn({ kind: r.kind, key: r.key, ...(r.version === undefined ? {} : { version: r.version }) },
      `stored ${what} set aside, not loaded: ${r.reason} (kept in the store's set-aside records, never deleted; GET /pacer/v1/set-aside)`);
  }
}

/** How the API describes the cluster (`/v2/info`) and finds the framework id. */
export interface ClusterFacts {
  readonly kind: 'local' | 'mesos';
  readonly master: string;
  /** On Mesos: the framework pacer registers as (`/v2/info` `framework_name`, `mesos_user`, `failover_timeout`). */
  readonly mesosFramework?: MesosFrameworkFacts;
  frameworkId(): string | undefined;
  /** On Mesos: the driver's counts for `/metrics`. */
  readonly driverMetrics?: () => MesosDriverMetrics;
}

/** The API before it listens: the fastify instance, its listeners and its authentication. */
export interface BuiltApi {
  readonly app: FastifyInstance;
  readonly listeners: ApiListeners;
  /** Undefined when no credentials are configured (the API is open). */
  readonly auth: ApiAuthentication | undefined;
}

/**
 * The REST API and event stream over `scheduler`, commands through the loop, behind the
 * configured authentication, on the configured listeners (HTTP, HTTPS or both). Not listening
 * yet. Throws (nothing opened) when a credentials file or the certificate cannot be used.
 */
export function buildApi(config: PacerConfig, base: RuntimeBase, scheduler: Scheduler, cluster: ClusterFacts): BuiltApi {
  const hub = new EventStreamHub({ subscribe: (listener) => scheduler.subscribe(listener), clock: base.clock });
  const startedAtMs = Date.now();
  const { listeners, auth } = apiEdges(config, base.log);
  const deps: ApiDeps = {
    scheduler, clock: base.clock, events: hub,
    submit: (command) => base.loop.submit(command),
    config: apiConfigOf(config, cluster, listeners),
    frameworkId: () => cluster.frameworkId(),
    uptimeMs: () => Date.now() - startedAtMs,
    recording: { dump: () => dumpRingKeeping(config.storePath, (dir) => base.recorder.dump(dir)) },
    whatIf: whatIfOf(base, scheduler),
    ...(cluster.driverMetrics === undefined ? {} : { mesosDriverMetrics: cluster.driverMetrics }),
  };
  const app = buildServer({ deps, stream: hub, auth, serverFactory: listeners.serverFactory, log: base.log, onCoreFailure: base.onCoreFailure });
  return { app, listeners, auth };
}

/** What the API reports of `config` and the cluster (`/v2/info`), with the listeners' facts (and, with `--zk`, ZooKeeper's). */
export function apiConfigOf(config: PacerConfig, cluster: Pick<ClusterFacts, 'kind' | 'master' | 'mesosFramework'>, listeners: ApiListeners, zookeeper?: ZookeeperFacts): ApiConfig {
  return withListenerFacts({
    ...(zookeeper === undefined ? {} : { zookeeper }),
    // Off Mesos the framework flags are reported as given (or at their defaults), as Marathon reports its flags.
    mesosFramework: cluster.mesosFramework ?? {
      name: config.frameworkName, failoverTimeoutSeconds: config.failoverTimeoutSeconds,
      ...(config.mesosUser === undefined ? {} : { user: config.mesosUser }),
    },
    ...(config.webuiUrl === undefined ? {} : { webuiUrl: config.webuiUrl }),
    defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    bodyLimitBytes: config.bodyLimitBytes, httpCompression: config.httpCompression, build: pacerBuild(),
    clusterKind: cluster.kind, master: cluster.master,
    maxRunningDeployments: config.maxRunningDeployments, prometheus: true, features: config.features,
  }, listeners);
}

/** The listeners and the authentication of `config` (throws when a file cannot be used). */
export function apiEdges(config: PacerConfig, log: PacerLog): { listeners: ApiListeners; auth: ApiAuthentication | undefined } {
  const listeners = new ApiListeners(config);
  const auth = ApiAuthentication.open({
    ...(config.httpCredentials === undefined ? {} : { httpCredentials: config.httpCredentials }),
    ...(config.httpCredentialsFile === undefined ? {} : { credentialsFile: config.httpCredentialsFile }),
    ...(config.httpTokensFile === undefined ? {} : { tokensFile: config.httpTokensFile }),
    realm: config.httpRealm, openPaths: config.httpAuthOpenPaths,
    loginFailures: config.httpAuthFailures, loginFailureWindowMs: config.httpAuthFailureWindowMs, scryptRuns: config.httpAuthScryptRuns,
    ...(config.authorizationFile === undefined ? {} : { authorizationFile: config.authorizationFile }),
  }, authLog(log));
  auth?.watch();
  return { listeners, auth };
}

/** The authentication's lines (credential files' reloads, blocked client addresses), as records of component `auth`. */
function authLog(log: PacerLog): (line: string, level?: 'warn') => void {
  const auth = log.child({ component: 'auth' });
  return (line, level) => {
    if (level === 'warn') auth.warn(line);
    else auth.info(line);
  };
}

/**
 * `config` plus what the API reports about where it listens (`httpAddress`, `leaderScheme`,
 * `listenerPorts`), as getters read per request: ports are known only once bound (`--port 0`).
 */
export function withListenerFacts(config: Omit<ApiConfig, 'httpAddress' | 'leaderScheme' | 'listenerPorts'>, listeners: ApiListeners): ApiConfig {
  return Object.defineProperties({ ...config }, {
    httpAddress: { get: () => listeners.leaderAddress, enumerable: true },
    leaderScheme: { get: () => listeners.scheme, enumerable: true },
    listenerPorts: { get: () => listeners.ports, enumerable: true },
  }) as ApiConfig;
}

/** A composition that serves. */
export interface Serving {
  /** `host:port` of the primary listener (HTTP, or HTTPS with `--disable_http`). */
  readonly address: string;
  /** Every listener: scheme and `host:port`. */
  readonly listening: readonly ListenerAddress[];
  /** Re-reads the credentials and tokens files (SIGHUP). */
  reloadAuth(): void;
  /** Stops taking inputs, stops serving, then `abandon`s; idempotent. */
  close(): Promise<void>;
}

/**
 * Listens on every configured listener — or, when it cannot, `abandon`s what was opened (driver,
 * loop, timers, store, lock) and throws — and returns the shutdown every real-time composition
 * shares: the loop closes first so nothing reaches the core while the API drains, then the
 * listeners, the credential-file watchers, and `abandon`.
 */
export async function serveApi(api: BuiltApi, base: RuntimeBase, abandon: Abandon): Promise<Serving> {
  let listening: ListenerAddress[];
  try {
    listening = await api.listeners.listen(api.app);
  } catch (err) {
    api.auth?.close();
    abandon({ failedStart: true });
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    base.loop.close();
    await Promise.all([api.app.close(), api.listeners.close()]);
    api.auth?.close();
    abandon({ failedStart: false });
  };
  return {
    address: api.listeners.leaderAddress, listening,
    reloadAuth: () => api.auth?.reload(),
    close: () => (closing ??= close()),
  };
}

/**
 * Undoes what a composition opened (driver, loop, store, lock). `failedStart`: the start failed
 * before serving, so a store file it created goes too ({@link RuntimeBase.discard}).
 */
export type Abandon = (how: { readonly failedStart: boolean }) => void;

/** The store's directory made (with its parents); an error names it (EEXIST alone named no role: a file stood in the way). */
function makeStoreDir(dir: string): void {
  try {
    makeDirs(dir);
  } catch (err) {
    throw new Error(`cannot create the store's directory ${dir} (--store): ${whyNoDir(err)}`);
  }
}
