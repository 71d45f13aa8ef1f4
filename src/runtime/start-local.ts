import { residentReservations } from './resident-reservations';
import type { FastifyInstance } from 'fastify';
import { LocalCluster, type LocalClusterOptions } from '../cluster/local/local-cluster';
import type { Scheduler } from '../scheduler/index';
import type { ListenerAddress } from './api-listeners';
import type { PacerConfig } from './config';
import type { PacerLog } from './pacer-log';
import { silentLog } from './pacer-log';
import type { LeaderDuties } from '../ha/leadership';
import { buildApi, dutiesExtras, openRuntime, serveApi, startScheduler, type BuiltApi, type ClusterFacts, type RuntimeBase, type RuntimeHooks, type Abandon } from './runtime-parts';
import type { RuntimeStore } from './runtime-store';
import { makeDirs, whyNoDir } from './make-dirs';
import { StoreLock } from './store-lock';
import { dirname } from 'node:path';

/** A running pacer: the API's address and an orderly shutdown. */
export interface RunningPacer {
  /** `host:port` the API listens on (the HTTPS one with `--disable_http`). */
  readonly address: string;
  /** Every listener (HTTP and/or HTTPS). */
  readonly listening: readonly ListenerAddress[];
  readonly app: FastifyInstance;
  readonly scheduler: Scheduler;
  readonly cluster: LocalCluster;
  /** Re-reads the API's credentials and tokens files (main.ts: on SIGHUP). */
  reloadAuth(): void;
  /** Stops serving and scheduling; tasks keep running (a restart re-adopts them); closes the store. Idempotent. */
  close(): Promise<void>;
}

/** The local cluster's options that come from the command line; what it does on its own goes to `log` (component `local`). */
export function localClusterOptions(config: PacerConfig, log: PacerLog): LocalClusterOptions {
  const local = log.child({ component: 'local' });
  return {
    agents: config.localAgents, sandboxRoot: config.sandboxRoot, taskKilling: config.features.includes('task_killing'),
    ...(config.localAgentPorts === undefined ? {} : { ports: config.localAgentPorts }),
    ...(config.localAgentAttributes === undefined ? {} : { agentAttributes: config.localAgentAttributes }),
    ...(config.localAgentDomains === undefined ? {} : { agentDomains: config.localAgentDomains }),
    offerIntervalMs: config.localOfferIntervalMs,
    sandboxGcDelayMs: config.localSandboxGcDelayMs,
    sandboxKeep: config.localSandboxKeep,
    log: (line) => local.warn(line),
  };
}

/**
 * The embedded default (`npm start`): the scheduler core on real processes of this host
 * (src/cluster/local), state in the embedded SQLite store, the REST API and event stream on
 * `address:port`. Composition order follows the architecture page: store (locked) → loop →
 * driver → scheduler (which recovers from the store) → driver start → API → listen. A store that
 * is corrupt, of a newer format, or in use by another pacer fails here with its own message,
 * before anything is changed; a failure later undoes what was opened.
 */
export async function startLocal(config: PacerConfig, hooks: RuntimeHooks = {}): Promise<RunningPacer> {
  const { base, cluster, scheduler, abandon } = openLocal(config, hooks);
  let api: BuiltApi;
  try {
    api = buildApi(config, base, scheduler, localClusterFacts(config, cluster));
  } catch (err) {
    abandon({ failedStart: true });
    throw err;
  }
  try {
    startCluster(config, cluster, scheduler);
  } catch (err) {
    api.auth?.close();
    abandon({ failedStart: true });
    throw err;
  }
  const { address, listening, reloadAuth, close } = await serveApi(api, base, abandon);
  return { address, listening, app: api.app, scheduler, cluster, reloadAuth, close };
}

/** The local cluster's facts for the API (`/v2/info`). */
export function localClusterFacts(config: PacerConfig, cluster?: LocalCluster): ClusterFacts {
  return { kind: 'local', master: `local://${config.localAgents} agent(s) on this host`, frameworkId: () => cluster?.frameworkId };
}

/**
 * What only the leader runs with `--zk` (src/ha): the store — `store`, the ZooKeeper store the
 * leader opened, or the SQLite file — the lock next to `--store`, the loop, the core recovered
 * from the store, and the local processes (started, re-adopted from the sandboxes' state file:
 * pacers that share `--sandbox` on one host take over each other's tasks). `stop()` closes the
 * loop before anything else, so no input reaches the core and the core calls the cluster no more,
 * then stops the cluster (its tasks keep running) and releases the store.
 */
export function startLocalDuties(config: PacerConfig, hooks: RuntimeHooks = {}, store?: RuntimeStore): LeaderDuties {
  const { base, cluster, scheduler, abandon } = openLocal(config, hooks, store);
  try {
    startCluster(config, cluster, scheduler);
  } catch (err) {
    abandon({ failedStart: true });
    throw err;
  }
  return {
    scheduler, submit: (command) => base.loop.submit(command), frameworkId: () => cluster.frameworkId,
    ...dutiesExtras(config, base, scheduler),
    stop: () => {
      base.loop.close();
      abandon({ failedStart: false });
    },
  };
}

/** Store → sandboxes' lock → loop → driver → scheduler (which recovers from the store); undone on failure. */
function openLocal(config: PacerConfig, hooks: RuntimeHooks, store?: RuntimeStore): { base: RuntimeBase; cluster: LocalCluster; scheduler: Scheduler; abandon: Abandon } {
  const base = openRuntime(config, hooks.log ?? silentLog(), hooks.onCoreFailure, store, hooks.storeFreeBytes);
  let sandboxLock: StoreLock;
  try {
    sandboxLock = lockSandboxes(config.sandboxRoot);
  } catch (err) {
    base.discard();
    throw err;
  }
  const cluster = new LocalCluster(localClusterOptions(config, base.log), (input) => base.loop.post(input));
  // The sandboxes' lock goes before the store's: a pacer waiting for the store lock (--zk) finds it free.
  const abandon: Abandon = ({ failedStart }) => {
    cluster.stop();
    sandboxLock.release();
    if (failedStart) base.discard();
    else base.release();
  };
  try {
    return { base, cluster, scheduler: startScheduler(config, base, cluster, base.store, hooks.inputs), abandon };
  } catch (err) {
    sandboxLock.release();
    base.discard();
    throw err;
  }
}

/**
 * The lock beside `--sandbox` (`<sandbox>.lock`), taken after the store's: the sandboxes' state file
 * names the processes of the pacer that holds them, and a second pacer on another `--store` but the
 * same sandboxes would adopt those processes and kill them as unknown to its own store. The
 * sandboxes' parent is made here (the cluster makes the directory itself at its start).
 */
function lockSandboxes(sandboxRoot: string): StoreLock {
  try {
    makeDirs(dirname(sandboxRoot));
  } catch (err) {
    throw sandboxesProblem(sandboxRoot, err);
  }
  return StoreLock.acquire(`${sandboxRoot}.lock`, { what: 'these sandboxes', flag: '--sandbox' });
}

/** Start the local cluster; a state file from before reservations were recorded takes the scheduler's (resident-reservations.ts). */
function startCluster(config: PacerConfig, cluster: LocalCluster, scheduler: Scheduler): void {
  try {
    cluster.start(() => residentReservations(scheduler));
  } catch (err) {
    throw sandboxesProblem(config.sandboxRoot, err);
  }
}

/** Why the local cluster cannot use `sandboxRoot`: a file where the sandboxes go is named with the option (mkdir's own words named no role). */
function sandboxesProblem(sandboxRoot: string, err: unknown): Error {
  return new Error(`cannot start the local cluster in ${sandboxRoot}: ${whyNoDir(err, '--sandbox')}`);
}
