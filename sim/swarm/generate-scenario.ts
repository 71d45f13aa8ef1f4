import Ajv2020 from 'ajv/dist/2020';
import { checkDefinitions } from '../runner/convert-definitions';
import { convertScenario } from '../scenario/convert-scenario';
import type { Scenario } from '../scenario/scenario';
import { EXPECTED_KEYWORD, scenarioSchema } from '../scenario/scenario-schema';
import { generateRawScenario } from './generate-raw-scenario';

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, discriminator: true });
ajv.addKeyword(EXPECTED_KEYWORD);
const validate = ajv.compile(scenarioSchema);

/**
 * The scenario of one swarm seed, as the runner executes it: {@link generateRawScenario}'s
 * document, checked the way `npm run sim` checks a file — against the scenario schema, by the
 * loader's semantic conversion, and every app and pod definition by the API's converter — and
 * converted. A generated document that fails any check is a bug of the generator: it throws.
 * Deterministic: the same seed gives a deep-equal scenario (and `--dump` writes the same document
 * as YAML, which loads to the same scenario).
 */
export function generateScenario(seed: number): Scenario {
  const raw = generateRawScenario(seed);
  if (!validate(raw)) throw new Error(`swarm seed ${seed}: the generated scenario breaks the schema: ${ajv.errorsText(validate.errors)}`);
  const converted = convertScenario(raw, () => undefined);
  if (!converted.ok) throw new Error(`swarm seed ${seed}: the generated scenario does not convert: ${JSON.stringify(converted.problems)}`);
  const definitionErrors = checkDefinitions(`swarm-${seed}`, converted.scenario);
  if (definitionErrors.length > 0) throw new Error(`swarm seed ${seed}: generated definitions are invalid:\n${definitionErrors.join('\n')}`);
  return converted.scenario;
}
