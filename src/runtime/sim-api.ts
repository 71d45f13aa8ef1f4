import type { FastifyInstance } from 'fastify';
import type { ApiConfig, ApiDeps } from '../api/api-deps';
import { EventStreamHub } from '../api/events/event-stream-hub';
import { buildServer } from '../api/server';
import type { ApiAuthentication } from '../api/auth/api-authentication';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import { DEFAULT_SCHEDULER_OPTIONS } from '../scheduler/scheduler-options';
import type { RunSession } from '../../sim/runner/run-scenario';
import type { Scenario } from '../../sim/scenario/scenario';
import type { PacerConfig } from './config';
import { pacerBuild } from './pacer-build';
import type { ApiListeners } from './api-listeners';
import { withListenerFacts } from './runtime-parts';

/** The REST API over a simulated run: the server, its event stream hub and what its routes use. */
export interface SimApi {
  readonly app: FastifyInstance;
  readonly hub: EventStreamHub;
  readonly deps: ApiDeps;
}

/**
 * Marathon's API and `/v2/events` over a run's own core and virtual clock (not listening yet):
 * API commands are handled in the run at the current virtual instant (`RunSession.submit`), and
 * `onSubmit` is told after each (the pacer wakes up for what they scheduled). Used by
 * `--cluster sim` (startSim, paced) and by bench:api (stepped by the benchmark).
 */
export function simApi(
  session: RunSession, scenario: Scenario, config: PacerConfig, onSubmit: () => void, startedAtMs: number,
  edges: { readonly listeners: ApiListeners; readonly auth?: ApiAuthentication | undefined },
): SimApi {
  const clock = { nowMs: () => session.nowMs() };
  const hub = new EventStreamHub({ subscribe: (listener) => session.scheduler.subscribe(listener), clock });
  const deps: ApiDeps = {
    scheduler: session.scheduler, clock, events: hub,
    submit: (command: Command): CommandResult => {
      const result = session.submit(command);
      onSubmit();
      return result;
    },
    config: simApiConfig(config, scenario, edges.listeners),
    frameworkId: () => undefined,
    uptimeMs: () => Date.now() - startedAtMs,
  };
  const app = buildServer({ deps, stream: hub, auth: edges.auth, serverFactory: edges.listeners.serverFactory });
  return { app, hub, deps };
}

/** What `/v2/info` reports and the routes validate against: the run's core settings (the workload's options). */
function simApiConfig(config: PacerConfig, scenario: Scenario, listeners: ApiListeners): ApiConfig {
  const agents = scenario.agents.length;
  return withListenerFacts({
    // The simulated core is built from the workload's options, not from the flags.
    defaultRole: scenario.options.defaultRole,
    newGroupEnforceRole: DEFAULT_SCHEDULER_OPTIONS.newGroupEnforceRole,
    maxRunningDeployments: DEFAULT_SCHEDULER_OPTIONS.maxRunningDeployments,
    features: scenario.options.taskKilling ? ['task_killing'] : [],
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    bodyLimitBytes: config.bodyLimitBytes, build: pacerBuild(),
    clusterKind: 'sim', master: `sim://${agents} simulated agent(s), workload ${scenario.name}`,
    prometheus: true,
  }, listeners);
}
