import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { EventStreamHub } from '../api/events/event-stream-hub';
import type { ApiDeps } from '../api/api-deps';
import { buildServer } from '../api/server';
import { LocalCluster } from '../cluster/local/local-cluster';
import { Scheduler } from '../scheduler/scheduler';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import type { PacerConfig } from './config';
import { HttpProber } from './http-prober';
import { RealTimers } from './real-timers';
import { RuntimeLoop } from './runtime-loop';
import { StoreLock } from './store-lock';

/** pacer's version, reported by `/v2/info`. */
export const PACER_VERSION = '0.1.0';

/** A running pacer: the API's address and an orderly shutdown. */
export interface RunningPacer {
  /** `host:port` the API listens on. */
  readonly address: string;
  readonly app: FastifyInstance;
  readonly scheduler: Scheduler;
  readonly cluster: LocalCluster;
  /** Stops serving and scheduling; tasks keep running (a restart re-adopts them); closes the store. */
  close(): Promise<void>;
}

/**
 * The embedded default (`npm start`): the scheduler core on real processes of this host
 * (src/cluster/local), state in the embedded SQLite store, the REST API and event stream on
 * `address:port`. Composition order follows the architecture page: loop → ports → store →
 * scheduler (which recovers from the store) → driver start → API → listen. A store that is
 * corrupt or of a newer format fails here with its own message, before anything is changed.
 */
export async function startLocal(config: PacerConfig): Promise<RunningPacer> {
  mkdirSync(dirname(config.storePath), { recursive: true });
  const lock = StoreLock.acquire(`${config.storePath}.lock`);
  let store: SqliteStore;
  try {
    store = SqliteStore.open(config.storePath, { synchronous: config.storeSynchronous });
  } catch (err) {
    lock.release();
    throw err;
  }
  const loop = new RuntimeLoop();
  const timers = new RealTimers((input) => loop.post(input));
  const cluster = new LocalCluster({
    agents: config.localAgents, sandboxRoot: config.sandboxRoot, taskKilling: config.features.includes('task_killing'),
  }, (input) => loop.post(input));
  const clock = { nowMs: () => Date.now() };
  let scheduler: Scheduler;
  try {
    scheduler = new Scheduler({
      clock, random: { next: Math.random }, timers, driver: cluster, store,
      prober: new HttpProber((observation) => loop.post({ type: 'probeResult', observation })),
    }, {
      defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
      maxRunningDeployments: config.maxRunningDeployments, taskKilling: config.features.includes('task_killing'),
    });
  } catch (err) {
    store.close();
    lock.release();
    throw err;
  }
  loop.attach(scheduler);
  const hub = new EventStreamHub({ subscribe: (listener) => scheduler.subscribe(listener), clock });
  const startedAtMs = Date.now();
  const deps: ApiDeps = {
    scheduler, clock, events: hub,
    submit: (command) => loop.submit(command),
    config: {
      defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
      ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
      httpAddress: `${config.address}:${config.port}`, bodyLimitBytes: config.bodyLimitBytes, version: PACER_VERSION,
      clusterKind: 'local', master: `local://${config.localAgents} agent(s) on this host`,
      maxRunningDeployments: config.maxRunningDeployments, prometheus: true, features: config.features,
    },
    frameworkId: () => cluster.frameworkId,
    uptimeMs: () => Date.now() - startedAtMs,
  };
  const app = buildServer({ deps, stream: hub });
  const abandon = (): void => {
    loop.close();
    cluster.stop();
    timers.clear();
    store.close();
    lock.release();
  };
  try {
    cluster.start();
  } catch (err) {
    abandon();
    throw new Error(`cannot start the local cluster in ${config.sandboxRoot}: ${(err as Error).message}`);
  }
  try {
    await app.listen({ host: config.address, port: config.port });
  } catch (err) {
    abandon();
    throw err;
  }
  const bound = app.server.address();
  const address = typeof bound === 'object' && bound !== null ? `${config.address}:${bound.port}` : `${config.address}:${config.port}`;
  return {
    address, app, scheduler, cluster,
    close: async () => {
      loop.close();
      await app.close();
      abandon();
    },
  };
}
