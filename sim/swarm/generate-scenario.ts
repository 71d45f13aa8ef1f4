import { scenario as validate } from '../../src/generated/scenario-validator';
import { convertScenario } from '../scenario/convert-scenario';
import { explainSchemaErrors } from '../scenario/explain-schema-errors';
import type { Scenario } from '../scenario/scenario';
import { generateRawScenario } from './generate-raw-scenario';

/**
 * The scenario of one swarm seed, as the runner executes it: {@link generateRawScenario}'s
 * document, checked the way `npm run sim` checks a file — against the scenario schema (the
 * loader's validator, compiled when pacer is built, src/validation/validator-modules.ts, and its
 * words for the problems), by the
 * loader's semantic conversion, and every app and pod definition by the API's converter — and
 * converted. A generated document that fails any check is a bug of the generator: it throws.
 * Deterministic: the same seed gives a deep-equal scenario (and `--dump` writes the same document
 * as YAML, which loads to the same scenario).
 */
export function generateScenario(seed: number): Scenario {
  const raw = generateRawScenario(seed);
  if (!validate(raw)) throw new Error(`swarm seed ${seed}: the generated scenario breaks the schema: ${explainSchemaErrors(validate.errors ?? []).map((p) => `${p.pointer} ${p.message}`).join('; ')}`);
  const converted = convertScenario(raw, () => undefined);
  // Its definitions are checked by the API's converter within (convert-action.ts).
  if (!converted.ok) throw new Error(`swarm seed ${seed}: the generated scenario does not convert: ${JSON.stringify(converted.problems)}`);
  return converted.scenario;
}
