import { readFileSync } from 'node:fs';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { checkDefinitions } from '../../sim/runner/convert-definitions';
import { formatSummary } from '../../sim/runner/format-summary';
import { createRunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { PacerConfig } from './config';
import { paceSession } from './pace-session';

/**
 * `--cluster sim`: the core against the simulated cluster, paced in real time (`speed` virtual ms
 * per wall-clock ms), driven by a workload file; events stream to stdout as JSON lines and the
 * workload's expectations are checked at the end. Returns the exit code.
 */
export async function runSim(config: PacerConfig, signal: AbortSignal): Promise<number> {
  let text: string;
  try {
    text = readFileSync(config.workload, 'utf8');
  } catch (err) {
    process.stderr.write(`${config.workload}: cannot read the workload: ${(err as Error).message}\n`);
    return 2;
  }
  const loaded = loadScenario(config.workload, text);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.errors.join('\n')}\n`);
    return 2;
  }
  const errors = checkDefinitions(config.workload, loaded.scenario);
  if (errors.length > 0) {
    process.stderr.write(`${errors.join('\n')}\n`);
    return 2;
  }
  const session = createRunSession(loaded.scenario, { seed: config.seed });
  session.onEvent((_atMs, event) => process.stdout.write(`${JSON.stringify(event)}\n`));
  process.stderr.write(`pacer: scheduling "${loaded.scenario.name}" on the simulated cluster at ${config.speed}x real time (Ctrl-C stops)\n`);
  await paceSession(session, VIRTUAL_EPOCH_MS, config.speed, signal);
  const result = session.finish();
  process.stderr.write(`${formatSummary(result, `npm start -- --cluster sim --workload ${config.workload} --seed ${result.seed}`)}\n`);
  return result.passed ? 0 : 1;
}
