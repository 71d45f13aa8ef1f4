import type { Test } from 'tap';
import { type ApiFixture, makeApi } from '../api-fixture';
import type { ApiConfig } from '../../../src/api/api-deps';
import type { SchedulerOptions } from '../../../src/scheduler/scheduler-options';
import type { TaskLaunch } from '../../../src/scheduler/model/launch';
import type { Offer } from '../../../src/scheduler/model/offer';
import { makeOffer } from '../../builders/cluster-builders';

/** A JSON object as the API writes it. */
export type Json = Record<string, unknown>;

/** What a test looks at in a response. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly json: Json;
  readonly text: string;
}

/**
 * The REST API over a real core, closed when the test ends. The options the core and the API
 * share (`--mesos_role`, `--new_group_enforce_role`, `--max_running_deployments`) go to both, as
 * `main.ts` wires them.
 */
export function apiFor(t: Test, config: Partial<ApiConfig> = {}): ApiFixture {
  const options: Partial<SchedulerOptions> = {
    ...(config.defaultRole !== undefined ? { defaultRole: config.defaultRole } : {}),
    ...(config.newGroupEnforceRole !== undefined ? { newGroupEnforceRole: config.newGroupEnforceRole } : {}),
    ...(config.maxRunningDeployments !== undefined ? { maxRunningDeployments: config.maxRunningDeployments } : {}),
  };
  const fx = makeApi({ config, options });
  t.teardown(() => fx.app.close());
  return fx;
}

/** One request through `inject`; a body object is sent as JSON, a string as is (`application/json`). */
export async function call(fx: ApiFixture, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<Reply> {
  const res = await fx.app.inject({
    method, url,
    ...(payload === undefined ? {} : {
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    }),
  });
  const text = res.body;
  let json: Json = {};
  try {
    json = text === '' ? {} : (JSON.parse(text) as Json);
  } catch {
    json = {};
  }
  return { status: res.statusCode, headers: res.headers, json, text };
}

/** A minimal valid app body; overrides replace fields. */
export function appBody(overrides: Json = {}): Json {
  return { id: '/foo', cmd: 'sleep 100', cpus: 0.1, mem: 32, ...overrides };
}

/** POSTs an app and fails the test unless it was created. */
export async function created(t: Test, fx: ApiFixture, body: Json): Promise<Reply> {
  const res = await call(fx, 'POST', '/v2/apps', body);
  t.equal(res.status, 201, res.status === 201 ? `created ${String(body.id)}` : res.text);
  return res;
}

/** Offers resources and drives everything that launched to TASK_RUNNING; returns the launches. */
export function runAll(fx: ApiFixture, ...offers: Offer[]): TaskLaunch[] {
  const launched = fx.harness.offer(...(offers.length > 0 ? offers : [makeOffer()]));
  fx.harness.run(launched);
  return launched;
}

/** Creates an app and brings its instances up (its deployment finishes). */
export async function running(t: Test, fx: ApiFixture, body: Json, ...offers: Offer[]): Promise<TaskLaunch[]> {
  await created(t, fx, body);
  return runAll(fx, ...offers);
}

/** Moves the manual clock, so that the next change gets a new version timestamp. */
export function tick(fx: ApiFixture, ms = 1000): void {
  fx.harness.advance(ms);
}

/** Ids of the running deployments. */
export function runningDeploymentIds(fx: ApiFixture): string[] {
  return fx.deps.scheduler.deployments().map((d) => d.deployment.plan.id);
}
