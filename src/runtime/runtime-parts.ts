import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api/api-deps';
import { EventStreamHub } from '../api/events/event-stream-hub';
import { buildServer } from '../api/server';
import type { ClusterDriver } from '../scheduler/ports/cluster-driver';
import type { Clock } from '../scheduler/ports/clock';
import type { Store } from '../scheduler/ports/store';
import { Scheduler } from '../scheduler/scheduler';
import type { SchedulerOptions } from '../scheduler/scheduler-options';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import type { PacerConfig } from './config';
import { HttpProber } from './http-prober';
import { RealTimers } from './real-timers';
import { RuntimeLoop } from './runtime-loop';
import { StoreLock } from './store-lock';

/** pacer's version, reported by `/v2/info`. */
export const PACER_VERSION = '0.1.0';

/**
 * What every real-time composition shares (`start-local.ts`, `start-mesos.ts`): the store file
 * (locked to this process), the loop, real timers and the wall clock. `release()` undoes it all.
 */
export interface RuntimeBase {
  readonly store: SqliteStore;
  readonly loop: RuntimeLoop;
  readonly timers: RealTimers;
  readonly clock: Clock;
  release(): void;
}

/** Opens the store (lock first, so a second pacer fails before touching it) and the loop. */
export function openRuntime(config: PacerConfig): RuntimeBase {
  mkdirSync(dirname(config.storePath), { recursive: true });
  const lock = StoreLock.acquire(`${config.storePath}.lock`);
  let store: SqliteStore;
  try {
    store = SqliteStore.open(config.storePath, { synchronous: config.storeSynchronous });
  } catch (err) {
    lock.release();
    throw err;
  }
  const loop = new RuntimeLoop((fn) => store.atomically(fn));
  const timers = new RealTimers((input) => loop.post(input));
  return {
    store, loop, timers, clock: { nowMs: () => Date.now() },
    release: () => {
      loop.close();
      timers.clear();
      store.close();
      lock.release();
    },
  };
}

/** The core's options that come from the command line. */
export function schedulerOptions(config: PacerConfig): Partial<SchedulerOptions> {
  return {
    defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
    maxRunningDeployments: config.maxRunningDeployments, taskKilling: config.features.includes('task_killing'),
    maxInstancesPerOffer: config.maxInstancesPerOffer, declineRefuseMs: config.declineOfferDurationMs, acceptRefuseMs: config.acceptRefuseDurationMs,
  };
}

/** The core on real ports; it recovers from `store` while being built, then joins the loop. */
export function startScheduler(config: PacerConfig, base: RuntimeBase, driver: ClusterDriver, store: Store = base.store): Scheduler {
  const scheduler = new Scheduler({
    clock: base.clock, random: { next: Math.random }, timers: base.timers, driver, store,
    prober: new HttpProber((observation) => base.loop.post({ type: 'probeResult', observation })),
  }, schedulerOptions(config));
  base.loop.attach(scheduler);
  return scheduler;
}

/** How the API describes the cluster (`/v2/info`) and finds the framework id. */
export interface ClusterFacts {
  readonly kind: 'local' | 'mesos';
  readonly master: string;
  frameworkId(): string | undefined;
}

/** The REST API and event stream over `scheduler`, commands through the loop. Not listening yet. */
export function buildApi(config: PacerConfig, base: RuntimeBase, scheduler: Scheduler, cluster: ClusterFacts): FastifyInstance {
  const hub = new EventStreamHub({ subscribe: (listener) => scheduler.subscribe(listener), clock: base.clock });
  const startedAtMs = Date.now();
  const deps: ApiDeps = {
    scheduler, clock: base.clock, events: hub,
    submit: (command) => base.loop.submit(command),
    config: {
      defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
      ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
      httpAddress: `${config.address}:${config.port}`, bodyLimitBytes: config.bodyLimitBytes, version: PACER_VERSION,
      clusterKind: cluster.kind, master: cluster.master,
      maxRunningDeployments: config.maxRunningDeployments, prometheus: true, features: config.features,
    },
    frameworkId: () => cluster.frameworkId(),
    uptimeMs: () => Date.now() - startedAtMs,
  };
  return buildServer({ deps, stream: hub });
}

/** Listens on the configured address; answers `host:port` actually bound (port 0 picks one). */
async function listenApi(app: FastifyInstance, config: PacerConfig): Promise<string> {
  await app.listen({ host: config.address, port: config.port });
  const bound = app.server.address();
  return typeof bound === 'object' && bound !== null ? `${config.address}:${bound.port}` : `${config.address}:${config.port}`;
}

/** A composition that serves: the address it listens on and its shutdown. */
export interface Serving {
  /** `host:port` the API listens on. */
  readonly address: string;
  /** Stops taking inputs, stops serving, then `abandon`s; idempotent. */
  close(): Promise<void>;
}

/**
 * Listens (`listenApi`) — or, when it cannot, `abandon`s what was opened (driver, loop, timers,
 * store, lock) and throws — and returns the shutdown every real-time composition shares: the loop
 * closes first so nothing reaches the core while the API drains, then `abandon`.
 */
export async function serveApi(app: FastifyInstance, config: PacerConfig, base: RuntimeBase, abandon: () => void): Promise<Serving> {
  let address: string;
  try {
    address = await listenApi(app, config);
  } catch (err) {
    abandon();
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    base.loop.close();
    await app.close();
    abandon();
  };
  return { address, close: () => (closing ??= close()) };
}
