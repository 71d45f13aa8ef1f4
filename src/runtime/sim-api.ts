import type { FastifyInstance } from 'fastify';
import type { ApiConfig, ApiDeps } from '../api/api-deps';
import { EventStreamHub } from '../api/events/event-stream-hub';
import { buildServer } from '../api/server';
import type { ApiAuthentication } from '../api/auth/api-authentication';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import type { MarathonEvent } from '../scheduler/model/events';
import { DEFAULT_SCHEDULER_OPTIONS } from '../scheduler/index';
import { NO_LEADER_REFUSAL, type RunSession } from '../../sim/runner/run-scenario';
import type { Scenario } from '../../sim/scenario/scenario';
import type { PacerConfig } from './config';
import { pacerBuild } from './pacer-build';
import type { ApiListeners } from './api-listeners';
import { withListenerFacts } from './runtime-parts';
import { CoreFailure, haltingHandler, reportCoreFailure, type CoreFailureHandler } from './core-failure';
import { silentLog, type PacerLog } from './pacer-log';
import { LastOffers } from '../whatif/last-offers';
import { WhatIf } from '../whatif/what-if';

/** The REST API over a simulated run: the server, its event stream hub and what its routes use. */
export interface SimApi {
  readonly app: FastifyInstance;
  readonly hub: EventStreamHub;
  readonly deps: ApiDeps;
}

/** Where the API listens and who may call, and where its records and a failure of the core go. */
export interface SimApiEdges {
  readonly listeners: ApiListeners;
  readonly auth?: ApiAuthentication | undefined;
  /** The request records (component `api`). Default: none. */
  readonly log?: PacerLog;
  /** A command or query that failed the core. Default: report it and end the process (runtime/core-failure.ts). */
  readonly onCoreFailure?: CoreFailureHandler;
}

/**
 * Marathon's API and `/v2/events` over a run's own core and virtual clock (not listening yet):
 * API commands are handled in the run at the current virtual instant (`RunSession.submit`), and
 * `onSubmit` is told after each (the pacer wakes up for what they scheduled). A command that
 * fails the core goes to `onCoreFailure` with the command as its input, as over the other
 * clusters (never a 500). Used by `--cluster sim` (startSim, paced) and by bench:api (stepped by
 * the benchmark).
 */
export function simApi(
  session: RunSession, scenario: Scenario, config: PacerConfig, onSubmit: () => void, startedAtMs: number,
  edges: SimApiEdges,
): SimApi {
  const log = edges.log ?? silentLog();
  const onCoreFailure = edges.onCoreFailure ?? haltingHandler(reportCoreFailure(log));
  const clock = { nowMs: () => session.nowMs() };
  // A workload's `schedulerFailover` replaces the core with a new object: every read, event stream
  // and what-if follows the one that leads (`session.scheduler`), never the core it had at start.
  const followCores = coreFollower(session);
  const hub = new EventStreamHub({ subscribe: followCores, clock });
  const lastOffers = new LastOffers((instanceId) => session.scheduler.instance(instanceId));
  session.onInput((atMs, input) => lastOffers.beforeInput(atMs, input));
  const deps: ApiDeps = {
    get scheduler() {
      return session.scheduler;
    },
    subscribeCore: followCores,
    clock, events: hub,
    submit: (command: Command): CommandResult => {
      let result: CommandResult;
      try {
        result = session.submit(command);
      } catch (err) {
        const failure = err instanceof CoreFailure ? err : new CoreFailure(command, session.nowMs(), err);
        onCoreFailure(failure);
        throw failure;
      }
      onSubmit();
      return result;
    },
    config: simApiConfig(config, scenario, edges.listeners),
    frameworkId: () => undefined,
    uptimeMs: () => Date.now() - startedAtMs,
    whatIf: followingWhatIf(session, new WhatIf({
      get scheduler() {
        return session.scheduler;
      },
      lastOffers: () => lastOffers.all(), nowMs: () => session.nowMs(), timings: scenario.options.timings,
    })),
  };
  const app = buildServer({
    deps, stream: hub, auth: edges.auth, serverFactory: edges.listeners.serverFactory, onCoreFailure,
    ...(edges.log === undefined ? {} : { log: edges.log }),
  });
  return { app, hub, deps };
}

/**
 * The what-if of the run: a simulated write while no core leads (a workload's failover, before its
 * takeover) is refused as the write itself is (`RunSession.submit`: the 409 of a locked change),
 * not answered from the core that died.
 */
function followingWhatIf(session: RunSession, whatIf: WhatIf): NonNullable<ApiDeps['whatIf']> {
  return {
    limits: whatIf.limits,
    simulate: (command, durationMs) => (session.leaderless() ? { refused: NO_LEADER_REFUSAL } : whatIf.simulate(command, durationMs)),
    capacity: (id) => whatIf.capacity(id),
  };
}

/**
 * Subscribes listeners to the events of every core of the run — the first and each that takes over
 * after a `schedulerFailover` (`RunSession.onEvent` follows them) — each until it unsubscribes.
 */
function coreFollower(session: RunSession): (listener: (event: MarathonEvent) => void) => () => void {
  const listeners = new Set<{ readonly listener: (event: MarathonEvent) => void }>();
  session.onEvent((_atMs, event) => {
    for (const entry of [...listeners]) entry.listener(event);
  });
  return (listener) => {
    const entry = { listener };
    listeners.add(entry);
    return () => void listeners.delete(entry);
  };
}

/** What `/v2/info` reports and the routes validate against: the run's core settings (the workload's options). */
function simApiConfig(config: PacerConfig, scenario: Scenario, listeners: ApiListeners): ApiConfig {
  const agents = scenario.agents.length;
  return withListenerFacts({
    // The simulated core is built from the workload's options, not from the flags.
    defaultRole: scenario.options.defaultRole,
    newGroupEnforceRole: DEFAULT_SCHEDULER_OPTIONS.newGroupEnforceRole,
    maxRunningDeployments: DEFAULT_SCHEDULER_OPTIONS.maxRunningDeployments,
    // task_killing is the core's (the workload's `taskKilling`); the others only say what the API
    // accepts (an app's GPUs, secrets, external volumes): those come from `--enable_features`.
    features: [...(scenario.options.taskKilling ? ['task_killing'] : []), ...config.features.filter((f) => f !== 'task_killing')],
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    bodyLimitBytes: config.bodyLimitBytes, httpCompression: config.httpCompression, build: pacerBuild(),
    clusterKind: 'sim', master: `sim://${agents} simulated agent(s), workload ${scenario.name}`,
    prometheus: true,
  }, listeners);
}
