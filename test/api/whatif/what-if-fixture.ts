import type { Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import type { ApiAuthentication } from '../../../src/api/auth/api-authentication';
import { buildServer } from '../../../src/api/server';
import type { SchedulerInput } from '../../../src/scheduler/model/inputs';
import { LastOffers } from '../../../src/whatif/last-offers';
import { WhatIf } from '../../../src/whatif/what-if';
import type { WhatIfLimits } from '../../../src/whatif/what-if-limits';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeApp } from '../../builders/run-spec-builders';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';
import { launchRunning } from '../tasks/tasks-fixture';

/** An API fixture whose deps answer what-if questions from its core and the offers it was given. */
export interface WhatIfFixture extends ApiFixture {
  readonly lastOffers: LastOffers;
}

/**
 * The REST API over the recording harness (api-fixture.ts) with `deps.whatIf`: the offers and
 * status updates the harness hands the core are seen by a {@link LastOffers} reading the core's
 * instances, as the runtime's loop observer sees them.
 */
export function whatIfApi(t: Test, opts: { limits?: Partial<WhatIfLimits>; auth?: ApiAuthentication } = {}): WhatIfFixture {
  const fx = makeApi(opts.auth === undefined ? {} : { auth: opts.auth });
  const lastOffers = new LastOffers((instanceId) => fx.harness.scheduler.instance(instanceId));
  const handle = fx.harness.handle.bind(fx.harness);
  fx.harness.handle = (input: SchedulerInput) => {
    lastOffers.beforeInput(fx.harness.nowMs, input);
    return handle(input);
  };
  const deps = {
    ...fx.deps,
    whatIf: new WhatIf({ scheduler: fx.harness.scheduler, lastOffers: () => lastOffers.all(), nowMs: () => fx.harness.nowMs }, opts.limits),
  };
  void fx.app.close();
  const app: FastifyInstance = buildServer({ deps, stream: { close: () => undefined }, ...(opts.auth === undefined ? {} : { auth: opts.auth }) });
  t.teardown(() => app.close());
  return { ...fx, app, deps, lastOffers };
}

/**
 * Two agents (`agent-a`, `agent-b`: 2 cpus, 2048 MB each) and `/web` with 2 running instances of
 * 0.5 cpus and 256 MB, both on `agent-a`; then each agent offers what it has left, as a live
 * cluster keeps doing (agent-a 1 cpu, agent-b 2 cpus).
 */
export function seedWeb(fx: WhatIfFixture, id = '/web'): void {
  const a = makeAgent({ agentId: 'agent-a', hostname: 'host-a' });
  const b = makeAgent({ agentId: 'agent-b', hostname: 'host-b' });
  launchRunning(fx, makeApp({ id, instances: 2, cpus: 0.5, mem: 256 }), makeOffer({ agent: a, cpus: 2, mem: 2048 }));
  fx.harness.advance(10_000);
  fx.harness.offer(makeOffer({ agent: a, cpus: 1, mem: 1536 }), makeOffer({ agent: b, cpus: 2, mem: 2048 }));
}
