import { readFileSync } from 'node:fs';
import { loadScenario } from '../../sim/scenario/load-scenario';
import type { Scenario } from '../../sim/scenario/scenario';
import { checkDefinitions } from '../../sim/runner/convert-definitions';
import { formatSummary } from '../../sim/runner/format-summary';
import { createRunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { PacerConfig } from './config';
import { paceSession } from './pace-session';
import { wireEventJson } from '../api/events/wire-event-json';

/**
 * Reads, validates and checks the definitions of the workload file `config.workload`: the
 * scenario, or every problem found, one line each (file, pointer, what was expected).
 */
export function loadWorkload(path: string): { readonly scenario: Scenario } | { readonly errors: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { errors: `${path}: cannot read the workload: ${(err as Error).message}` };
  }
  const loaded = loadScenario(path, text);
  if (!loaded.ok) return { errors: loaded.errors.join('\n') };
  const errors = checkDefinitions(path, loaded.scenario);
  if (errors.length > 0) return { errors: errors.join('\n') };
  return { scenario: loaded.scenario };
}

/** The command that replays a sim run, for the summary's verdict line. */
export function reproduceCommand(workload: string, seed: number): string {
  return `npm start -- --cluster sim --workload ${workload} --seed ${seed}`;
}

/**
 * `--cluster sim`: the core against the simulated cluster, paced in real time (`speed` virtual ms
 * per wall-clock ms), driven by a workload file; events stream to stdout as JSON lines and the
 * workload's expectations are checked at the end. Returns the exit code.
 */
export async function runSim(config: PacerConfig, signal: AbortSignal): Promise<number> {
  const workload = loadWorkload(config.workload);
  if ('errors' in workload) {
    process.stderr.write(`${workload.errors}\n`);
    return 2;
  }
  const session = createRunSession(workload.scenario, { seed: config.seed });
  session.onEvent((_atMs, event) => process.stdout.write(`${JSON.stringify(wireEventJson(event, 'full'))}\n`));
  process.stderr.write(`pacer: scheduling "${workload.scenario.name}" on the simulated cluster at ${config.speed}x real time (Ctrl-C stops)\n`);
  await paceSession(session, VIRTUAL_EPOCH_MS, config.speed, signal);
  const result = session.finish();
  process.stderr.write(`${formatSummary(result, reproduceCommand(config.workload, result.seed))}\n`);
  return result.passed ? 0 : 1;
}
