import { readFileSync } from 'node:fs';
import { loadScenario } from '../../sim/scenario/load-scenario';
import type { Scenario } from '../../sim/scenario/scenario';

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
  return { scenario: loaded.scenario };
}

/** The command that replays a sim run, for the summary's verdict line. */
export function reproduceCommand(workload: string, seed: number): string {
  return `npm start -- --cluster sim --workload ${workload} --seed ${seed}`;
}
