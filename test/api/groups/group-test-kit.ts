import type { Test } from 'tap';
import type { ApiConfig } from '../../../src/api/api-deps';
import type { SchedulerOptions } from '../../../src/scheduler/scheduler-options';
import { makeOffer } from '../../builders/cluster-builders';
import { type ApiFixture, makeApi } from '../api-fixture';

/** What a test reads from one response. */
export interface Reply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
  /** The body parsed as JSON (undefined for an empty body). */
  readonly json: unknown;
}

/** A fixture with request helpers; closed by tap's teardown. */
export interface GroupKit extends ApiFixture {
  request(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<Reply>;
  /**
   * Drives the cluster until no deployment runs (at most a few rounds): a large offer, every
   * launched task run, every killed task reported TASK_KILLED; the clock moves a second a round.
   */
  settle(): void;
}

/** Overrides of the API config and of the core's options. */
export interface GroupKitOptions {
  readonly config?: Partial<ApiConfig>;
  readonly options?: Partial<SchedulerOptions>;
}

/** {@link makeApi} with request helpers. */
export function groupKit(t: Test, opts: GroupKitOptions = {}): GroupKit {
  const fixture = makeApi({ ...(opts.config === undefined ? {} : { config: opts.config }), ...(opts.options === undefined ? {} : { options: opts.options }) });
  t.teardown(() => fixture.app.close());
  return {
    ...fixture,
    async request(method, url, body) {
      const res = await fixture.app.inject({
        method, url,
        ...(body === undefined ? {} : typeof body === 'string' ? { payload: body, headers: { 'content-type': 'application/json' } } : { payload: body as object }),
      });
      return { statusCode: res.statusCode, headers: res.headers, body: res.body, json: res.body === '' ? undefined : JSON.parse(res.body) };
    },
    settle() {
      const { harness } = fixture;
      const killed = new Set<string>();
      for (let round = 0; round < 5; round++) {
        harness.run(harness.offer(makeOffer({ cpus: 64, mem: 65536 })));
        for (const call of harness.driver.of('kill')) {
          if (killed.has(call.taskId)) continue;
          killed.add(call.taskId);
          harness.status(call.taskId, 'TASK_KILLED');
        }
        harness.advance(1000);
        if (harness.scheduler.deployments().length === 0) return;
      }
    },
  };
}

/** An app definition for group bodies: small resources, `sleep`, overrides on top. */
export function appBody(id: string, overrides: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { id, cmd: 'sleep 1000', cpus: 0.1, mem: 32, instances: 1, ...overrides };
}

/** A JSON object (throws when the value is not one): for reading fields of responses. */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

/** A JSON array of objects (throws otherwise). */
export function objs(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new Error(`not an array: ${JSON.stringify(value)}`);
  return value.map(obj);
}
