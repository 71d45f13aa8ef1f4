import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../../src/api/api-deps';
import type { ApiAuthentication } from '../../../src/api/auth/api-authentication';
import { EventStreamHub } from '../../../src/api/events/event-stream-hub';
import { buildServer } from '../../../src/api/server';
import type { PacerLog } from '../../../src/runtime/pacer-log';
import type { StoredState } from '../../../src/scheduler/ports/store';
import { Harness } from '../../harness/core-harness';
import { TEST_API_CONFIG } from '../api-fixture';

export interface SseServer {
  readonly harness: Harness;
  readonly hub: EventStreamHub;
  readonly deps: ApiDeps;
  readonly app: FastifyInstance;
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  readonly port: number;
}

/**
 * The whole API listening on 127.0.0.1 (port 0) with a real {@link EventStreamHub} over a real core
 * in manual time: the hub is both the stream and the API's event publisher, as in production.
 * The caller closes `app` (which closes the hub) in `t.teardown`. `auth`: behind authentication
 * (and `--authorization_file`). `stored`: the core starts on this stored state (as after a restart).
 */
export async function startSseServer(opts: { bufferSize?: number; bufferBytes?: number; endGraceMs?: number; keepAliveMs?: number; maxSubscribers?: number; auth?: ApiAuthentication; stored?: StoredState; log?: PacerLog } = {}): Promise<SseServer> {
  const { auth, stored, log, ...hubOptions } = opts;
  const harness = new Harness(stored === undefined ? {} : { stored });
  const clock = { nowMs: () => harness.nowMs };
  const hub = new EventStreamHub({ subscribe: (listener) => harness.scheduler.subscribe(listener), clock, ...hubOptions });
  const deps: ApiDeps = {
    scheduler: harness.scheduler,
    submit: (command) => harness.handle(command) ?? { ok: true },
    clock,
    events: hub,
    config: TEST_API_CONFIG,
    frameworkId: () => 'pacer-test-framework',
    uptimeMs: () => harness.elapsedMs,
  };
  const app = buildServer({ deps, stream: hub, ...(auth === undefined ? {} : { auth }), ...(log === undefined ? {} : { log }) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { harness, hub, deps, app, baseUrl: `http://127.0.0.1:${port}`, port };
}
