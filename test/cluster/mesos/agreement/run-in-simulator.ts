import { createRunSession } from '../../../../sim/runner/run-scenario';
import type { RunResult } from '../../../../sim/runner/run-result';
import type { Scenario } from '../../../../sim/scenario/scenario';
import { PlacementLog } from './placement-log';

/** What a simulator run produced: its result and its placement decisions. */
export interface SimulatorRun {
  readonly result: RunResult;
  readonly log: PlacementLog;
}

/** Runs a scenario in the simulator (virtual time, the runner's own loop), recording decisions from the core's events. */
export function runInSimulator(scenario: Scenario): SimulatorRun {
  const log = new PlacementLog();
  const session = createRunSession(scenario, { trace: false });
  session.onEvent((atMs, event) => log.onEvent(atMs, event));
  while (session.step(session.endMs)) {
    // each step handled inside session.step
  }
  return { result: session.finish(), log };
}
