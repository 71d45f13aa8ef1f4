import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../../sim/scenario/load-scenario';
import type { Scenario } from '../../../../sim/scenario/scenario';
import { repoPath } from '../../../harness/repo-path';

/** The repository's `scenarios/` directory. */
const SCENARIOS_DIR = repoPath('scenarios');

/** Loads a scenario file under `scenarios/` (throws with the loader's errors when it is invalid). */
export function loadScenarioFile(relativePath: string): Scenario {
  const loaded = loadScenario(relativePath, readFileSync(join(SCENARIOS_DIR, relativePath), 'utf8'));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.scenario;
}
