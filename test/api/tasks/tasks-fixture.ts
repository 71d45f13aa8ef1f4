import type { ApiFixture } from '../api-fixture';
import type { TaskLaunch } from '../../../src/scheduler/model/launch';
import type { Offer } from '../../../src/scheduler/model/offer';
import type { RunSpec } from '../../../src/scheduler/model/run-spec';
import { makeOffer } from '../../builders/cluster-builders';

/** Puts a run spec through the core and launches it on the offers given (one default offer if none). */
export function launch(fx: ApiFixture, spec: RunSpec, ...offers: Offer[]): TaskLaunch[] {
  fx.harness.put(spec);
  return fx.harness.offer(...(offers.length > 0 ? offers : [makeOffer()]));
}

/** Puts a run spec and drives every launched task to TASK_RUNNING. */
export function launchRunning(fx: ApiFixture, spec: RunSpec, ...offers: Offer[]): TaskLaunch[] {
  const launched = launch(fx, spec, ...offers);
  fx.harness.run(launched);
  return launched;
}

/** The parsed JSON body of an inject response. */
export function body<T = Record<string, unknown>>(res: { body: string }): T {
  return JSON.parse(res.body) as T;
}

export type TaskWire = Record<string, unknown> & { id: string; appId: string; state: string };
