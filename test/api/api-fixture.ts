import type { FastifyInstance } from 'fastify';
import type { ApiConfig, ApiDeps, ApiEvent } from '../../src/api/api-deps';
import type { ApiAuthentication } from '../../src/api/auth/api-authentication';
import { buildServer } from '../../src/api/server';
import { Harness, type HarnessOptions } from '../harness/core-harness';

/** Defaults of the API config in tests (Marathon's flag defaults where it has the flag). */
export const TEST_API_CONFIG: ApiConfig = {
  defaultRole: '*',
  newGroupEnforceRole: 'off',
  httpAddress: '127.0.0.1:8080',
  bodyLimitBytes: 1024 * 1024,
  build: { version: '0.1.0', commit: '0123456789ab' },
  clusterKind: 'sim',
  master: 'sim://test',
  maxRunningDeployments: 100,
  prometheus: true,
  features: [],
};

export interface ApiFixture {
  /** The core in manual time: offers, status updates and timers are driven through it. */
  readonly harness: Harness;
  /** The fastify instance, for `inject`. Not listening unless a test calls `listen`. */
  readonly app: FastifyInstance;
  readonly deps: ApiDeps;
  /** Events the API layer published (api_post_event, pod_*_event, …). */
  readonly apiEvents: ApiEvent[];
}

/**
 * The REST API over a real core driven by the recording harness (manual clock, recording driver):
 * commands from the routes go straight to `scheduler.handle`, then due timers run, as the runtime
 * loop does. Close `app` in `t.teardown`.
 */
export function makeApi(opts: HarnessOptions & { readonly config?: Partial<ApiConfig>; readonly auth?: ApiAuthentication } = {}): ApiFixture {
  const config = { ...TEST_API_CONFIG, ...opts.config };
  // The core enforces the same role and deployment options the API reports.
  const harness = new Harness({
    ...opts,
    options: {
      defaultRole: config.defaultRole, newGroupEnforceRole: config.newGroupEnforceRole,
      maxRunningDeployments: config.maxRunningDeployments, ...opts.options,
    },
  });
  const apiEvents: ApiEvent[] = [];
  const deps: ApiDeps = {
    scheduler: harness.scheduler,
    submit: (command) => harness.handle(command) ?? { ok: true },
    clock: { nowMs: () => harness.nowMs },
    events: { publish: (event) => void apiEvents.push(event) },
    config,
    frameworkId: () => 'pacer-test-framework',
    uptimeMs: () => harness.elapsedMs,
  };
  const app = buildServer({ deps, stream: { close: () => undefined }, ...(opts.auth === undefined ? {} : { auth: opts.auth }) });
  return { harness, app, deps, apiEvents };
}
