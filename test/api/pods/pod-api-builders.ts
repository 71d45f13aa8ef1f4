// Builders and helpers shared by the /v2/pods tests (not a test file: tap runs *.test.ts only).
import type { FastifyInstance } from 'fastify';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeOffer } from '../../builders/cluster-builders';
import { START_MS } from '../../harness/core-harness';
import { makeContainerJson, makePodJson, minimalPodEcho as minimalPodEchoAt } from '../../unit/marathon/convert/fixtures/builders';
import type { TaskLaunch } from '../../../src/scheduler/model/launch';
import type { Offer } from '../../../src/scheduler/model/offer';

export type Json = Record<string, unknown>;

/** Parsed response JSON, navigable by key or index (`res.json.instances[0].id`); see {@link list}. */
export interface J {
  readonly [key: string]: J;
}

/** A JSON array as a list (`list(res.json.instances).length`). */
export function list(value: J): J[] {
  if (!Array.isArray(value)) throw new Error(`expected a JSON array, got ${JSON.stringify(value)}`);
  return value as J[];
}

/** The harness clock's start, as every version written at that instant reads. */
export const T0 = new Date(START_MS).toISOString();

/**
 * The minimal valid pod (`/p`, one container) and container, with `over` applied (a key set to
 * `undefined` is removed): the converter tests' builders, under the names these tests use.
 */
export const containerBody = makeContainerJson;
export const podBody = makePodJson;

/** What the API echoes for {@link podBody}() written at `version` (default {@link T0}): the converter tests' one copy. */
export function minimalPodEcho(version: string = T0, id = '/p'): Json {
  return minimalPodEchoAt(version, id);
}

/** One injected request's outcome, with the body parsed when there is one. */
export interface Sent {
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
  /** The parsed body (`{}` when empty), navigable without casts. */
  readonly json: J;
}

/** Sends one request through fastify's `inject` (no socket). */
export async function send(app: FastifyInstance, method: string, url: string, payload?: unknown): Promise<Sent> {
  const res = await app.inject({
    method: method as 'GET',
    url,
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  const json = res.body === '' ? {} : JSON.parse(res.body);
  return { status: res.statusCode, headers: res.headers, body: res.body, json };
}

/** A fresh API (closed at the end of `t`). */
export function podApi(t: { teardown(fn: () => unknown): void }, opts: Parameters<typeof makeApi>[0] = {}): ApiFixture {
  const api = makeApi(opts);
  t.teardown(() => api.app.close());
  return api;
}

/** POSTs a pod that must be accepted; returns the response. */
export async function createPod(api: ApiFixture, body: Json = podBody()): Promise<Sent> {
  const res = await send(api.app, 'POST', '/v2/pods', body);
  if (res.status !== 201) throw new Error(`pod create failed: ${res.status} ${res.body}`);
  return res;
}

/** Offers one default offer and runs (STAGING → STARTING → RUNNING) every task it launched. */
export function launch(api: ApiFixture, offer: Offer = makeOffer()): TaskLaunch[] {
  const launched = api.harness.offer(offer);
  api.harness.run(launched);
  return launched;
}

/** The only instance id of a pod (throws unless there is exactly one). */
export function onlyInstanceId(api: ApiFixture, podId = '/p'): string {
  const instances = api.harness.instances(podId);
  if (instances.length !== 1) throw new Error(`expected one instance of ${podId}, got ${instances.length}`);
  return instances[0].instanceId;
}
