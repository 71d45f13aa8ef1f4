import { CONDITIONS } from '../../src/scheduler/model/condition';
import { NO_MATCH_REASONS } from '../../src/scheduler/model/no-match-reason';
import { EVENT_FIELDS } from './event-fields';
import { COMPARISON_EXPECTED, COMPARISON_PATTERN } from './parse-comparison';
import { DURATION_EXPECTED, DURATION_PATTERN } from './parse-duration';
import { RANGES_PATTERN } from './parse-ranges';
import { ACTION_TYPES } from './scenario';
import { MAX_INSTANCES } from '../../src/scheduler/model/run-spec-limits';
import { MAX_RESOURCE } from '../../src/marathon/schemas/limits';

/**
 * Annotation keyword: what a value must look like, in plain words. The loader words errors for the
 * annotated schema (and for any failing subschema of an `anyOf`/`oneOf` it annotates) as
 * `expected <this>`. Validators other than ours ignore it.
 */
export const EXPECTED_KEYWORD = 'x-expected';

type Schema = Record<string, unknown>;

/** A value that is either a string of a given pattern or a whole number ≥ 0, both worded `expected`. */
function stringOrWholeNumber(pattern: string, expected: string): Schema {
  return {
    [EXPECTED_KEYWORD]: expected,
    if: { type: 'string' },
    then: { type: 'string', minLength: 1, pattern, [EXPECTED_KEYWORD]: expected },
    else: { type: 'integer', minimum: 0, [EXPECTED_KEYWORD]: expected },
  };
}

const duration = stringOrWholeNumber(DURATION_PATTERN, DURATION_EXPECTED);

const DELAY_RANGE_EXPECTED = `a delay range [min, max] of durations, or one duration (${DURATION_EXPECTED})`;
const delayRange: Schema = {
  [EXPECTED_KEYWORD]: DELAY_RANGE_EXPECTED,
  if: { type: 'array' },
  then: {
    type: 'array', prefixItems: [duration, duration], items: false, minItems: 2, maxItems: 2,
    [EXPECTED_KEYWORD]: DELAY_RANGE_EXPECTED,
  },
  else: stringOrWholeNumber(DURATION_PATTERN, DELAY_RANGE_EXPECTED),
};

const count = stringOrWholeNumber(COMPARISON_PATTERN, COMPARISON_EXPECTED);

function ranges(maxValue: number, expected: string): Schema {
  const bound = { type: 'integer', minimum: 0, maximum: maxValue };
  return {
    [EXPECTED_KEYWORD]: expected,
    if: { type: 'string' },
    then: { type: 'string', pattern: RANGES_PATTERN, [EXPECTED_KEYWORD]: expected },
    else: {
      type: 'array',
      [EXPECTED_KEYWORD]: expected,
      items: {
        type: 'array', prefixItems: [bound, bound], items: false, minItems: 2, maxItems: 2,
        [EXPECTED_KEYWORD]: `a pair [begin, end] of whole numbers from 0 to ${maxValue}`,
      },
    },
  };
}

const ports = ranges(65_535, 'port ranges such as "31000-32000,33000-33100" or [[31000, 32000]]');

const nonEmptyString = { type: 'string', minLength: 1 };
const wholeNumber = { type: 'integer', minimum: 0 };
const positiveWholeNumber = { type: 'integer', minimum: 1 };
/** An agent's resource: the API's bound on a definition's (a resource × 1000 stays an exact milli-unit). */
const resource = { type: 'number', minimum: 0, maximum: MAX_RESOURCE };
const instanceCount = { type: 'integer', minimum: 0, maximum: MAX_INSTANCES };
const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const name = { type: 'string', pattern: NAME_PATTERN, [EXPECTED_KEYWORD]: 'a name of letters, digits, ".", "_" and "-"' };

const runSpecId = { type: 'string', minLength: 1, [EXPECTED_KEYWORD]: 'an app or pod id such as "/web"' };
const agentId = { type: 'string', minLength: 1, [EXPECTED_KEYWORD]: 'an agent id such as "agent-1"' };

function resources(required: readonly string[]): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required,
    properties: {
      cpus: resource,
      mem: resource,
      disk: resource,
      gpus: { ...wholeNumber, maximum: MAX_RESOURCE },
      ports,
    },
  };
}

const ATTRIBUTE_EXPECTED = 'text, a number, {set: [a, b]} or {ranges: "1-5,7-9"}';
const attributeValue: Schema = {
  [EXPECTED_KEYWORD]: ATTRIBUTE_EXPECTED,
  if: { type: 'string' },
  then: { type: 'string' },
  else: {
    if: { type: 'number' },
    then: { type: 'number' },
    else: {
      type: 'object',
      [EXPECTED_KEYWORD]: ATTRIBUTE_EXPECTED,
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: {
        set: { type: 'array', items: { type: ['string', 'number'] } },
        ranges: ranges(Number.MAX_SAFE_INTEGER, 'ranges such as "1-5,7-9" or [[1, 5], [7, 9]]'),
      },
    },
  },
};

const agentGroup: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['resources'],
  properties: {
    count: { type: 'integer', minimum: 1, maximum: 10_000 },
    start: positiveWholeNumber,
    idPrefix: name,
    hostnamePrefix: name,
    region: nonEmptyString,
    zones: { type: 'array', minItems: 1, items: nonEmptyString },
    resources: resources(['cpus', 'mem']),
    reserved: {
      type: 'array',
      items: { ...resources(['role']), properties: { role: nonEmptyString, ...(resources([]).properties as Schema) } },
    },
    attributes: { type: 'object', additionalProperties: attributeValue },
  },
};

/** A `oneOf` over objects tagged by `kind`; each variant lists its other fields (a name ending in `?` is optional). */
function tagged(variants: Readonly<Record<string, Schema>>): Schema {
  return {
    type: 'object',
    discriminator: { propertyName: 'kind' },
    oneOf: Object.entries(variants).map(([kind, fields]) => ({
      type: 'object',
      additionalProperties: false,
      required: ['kind', ...Object.keys(fields).filter((field) => !field.endsWith('?'))],
      properties: {
        kind: { const: kind },
        ...Object.fromEntries(Object.entries(fields).map(([field, schema]) => [field.replace(/\?$/, ''), schema])),
      },
    })),
  };
}

const healthModel = tagged({
  healthy: {},
  flaky: { p: { type: 'number', minimum: 0, maximum: 1, [EXPECTED_KEYWORD]: 'a probability from 0 to 1' } },
  failingFrom: { from: duration },
  failingDuring: { from: duration, to: duration },
  slow: { latency: duration },
  status: { status: { type: 'integer', minimum: 100, maximum: 599, [EXPECTED_KEYWORD]: 'an HTTP status from 100 to 599' } },
});

const taskModel = tagged({
  runForever: {},
  exitAfter: { after: delayRange, 'state?': { enum: ['TASK_FAILED', 'TASK_FINISHED'] } },
  failToStart: { after: delayRange },
});

const onAgentsCheck: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'agents'],
  properties: { id: runSpecId, agents: { type: 'array', minItems: 1, items: agentId } },
};

const expectation: Schema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    instances: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: Object.fromEntries([...CONDITIONS, 'total'].map((key) => [key, count])),
      },
    },
    healthy: { type: 'object', additionalProperties: count },
    spread: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'field'],
        properties: {
          id: runSpecId,
          field: { type: 'string', minLength: 1, [EXPECTED_KEYWORD]: 'a field such as "hostname", "@zone", "@region" or an attribute name' },
          values: count,
          maxPerValue: wholeNumber,
          minPerValue: wholeNumber,
          maxSkew: wholeNumber,
        },
      },
    },
    onAgents: {
      if: { type: 'array' },
      then: { type: 'array', items: onAgentsCheck },
      else: onAgentsCheck,
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { enum: Object.keys(EVENT_FIELDS) },
          min: wholeNumber,
          max: wholeNumber,
          count: wholeNumber,
          where: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
          since: duration,
        },
      },
    },
    deployments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: {
          id: runSpecId,
          running: { type: 'boolean' },
          unplaced: count,
          notHealthy: count,
          toReplace: count,
          reason: { enum: [...NO_MATCH_REASONS] },
        },
      },
    },
    rejections: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: { id: runSpecId, reason: { enum: [...NO_MATCH_REASONS] } },
      },
    },
  },
};

const MARATHON_DEFINITION = 'a Marathon definition: an object with a string "id"';
function definition(kind: string): Schema {
  return {
    type: 'object',
    required: ['id'],
    properties: { id: runSpecId },
    [EXPECTED_KEYWORD]: `${MARATHON_DEFINITION} (the ${kind} JSON of the REST API, written as YAML)`,
  };
}

const actions: Readonly<Record<(typeof ACTION_TYPES)[number], Schema>> = {
  app: definition('app'),
  pod: definition('pod'),
  scale: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'instances'],
    properties: { id: runSpecId, instances: instanceCount },
  },
  delete: runSpecId,
  kill: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: runSpecId, count: { ...positiveWholeNumber, maximum: MAX_INSTANCES }, agent: agentId, scale: { type: 'boolean' }, wipe: { type: 'boolean' } },
  },
  partition: agentId,
  heal: agentId,
  killAgent: agentId,
  addAgents: agentGroup,
  health: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'model'],
    properties: { id: runSpecId, model: healthModel },
  },
  taskModel: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'model'],
    properties: { id: runSpecId, model: taskModel },
  },
  resetDelay: runSpecId,
  deploy: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: { apps: { type: 'array', items: definition('app') }, pods: { type: 'array', items: definition('pod') } },
  },
  cancelDeployment: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: runSpecId, force: { type: 'boolean' } },
  },
  schedulerFailover: {
    type: 'object',
    additionalProperties: false,
    properties: { downtime: duration },
  },
  expect: expectation,
  note: { type: 'string' },
};

const step: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['at'],
  properties: { at: duration, force: { type: 'boolean' }, ...actions },
  oneOf: ACTION_TYPES.map((action) => ({ required: [action] })),
  [EXPECTED_KEYWORD]: `exactly one action besides "at" (one of: ${ACTION_TYPES.join(', ')})`,
};

const timings: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    offerInterval: duration,
    staging: delayRange,
    starting: delayRange,
    running: delayRange,
    shutdown: delayRange,
    agentPingTimeout: duration,
    probeLatency: delayRange,
    agentRemoval: duration,
  },
};

/**
 * The JSON Schema (2020-12) of scenario files: the single contract of the format (see
 * docs/scenario-format.md). Unknown keys are errors everywhere; inside Marathon app and pod
 * definitions the loader checks them against the API's own schemas, closed (`definition-shape.ts`),
 * and the app/pod converter checks the rest. Beyond standard keywords it uses
 * `discriminator` (health and task models, tag `kind`) and the annotation {@link EXPECTED_KEYWORD}.
 * Rules the schema cannot say (time order, agent ids, ranges, references) are checked by the loader.
 */
export const scenarioSchema: Readonly<Schema> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'pacer scenario',
  type: 'object',
  [EXPECTED_KEYWORD]: 'a scenario: a mapping with name, seed, duration, cluster and timeline',
  additionalProperties: false,
  required: ['name', 'seed', 'duration', 'cluster', 'timeline'],
  properties: {
    name: nonEmptyString,
    description: { type: 'string' },
    seed: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    duration,
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        taskKilling: { type: 'boolean' },
        defaultRole: nonEmptyString,
        maxInstancesPerOffer: { ...positiveWholeNumber, maximum: 1_000_000 },
        unhealthyKillFloor: { type: 'number', minimum: 0, maximum: 1, [EXPECTED_KEYWORD]: 'a number from 0 to 1' },
        timings,
      },
    },
    invariants: {
      type: 'object',
      additionalProperties: false,
      properties: { convergeWithin: duration, upgradeBounds: { type: 'boolean' } },
    },
    cluster: {
      type: 'object',
      additionalProperties: false,
      required: ['agents'],
      properties: { agents: { type: 'array', minItems: 1, items: agentGroup } },
    },
    timeline: { type: 'array', items: step },
  },
};
