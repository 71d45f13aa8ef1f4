import { readFileSync } from 'node:fs';
import Ajv, { type KeywordDefinition, type Options } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type AjvCore from 'ajv/dist/core';
import standaloneCode from 'ajv/dist/standalone';
import { scenarioSchema, EXPECTED_KEYWORD } from '../../sim/scenario/scenario-schema';
import { closedSchema } from '../../sim/scenario/closed-schema';
import { STORED_EXECUTOR_SCHEMA, STORED_RESERVATION_SCHEMA } from '../cluster/local/stored-executor-schema';
import { APP_SCHEMA, APP_UPDATE_SCHEMA } from '../marathon/schemas/app-schema';
import { ENUM_CASELESS_KEYWORD } from '../marathon/schemas/enum-caseless-keyword';
import { POD_SCHEMA } from '../marathon/schemas/pod-schema';
import { STORED_GROUP_SCHEMA, STORED_RUN_SPEC_SCHEMA } from '../store/records/spec-records';
import { STORED_DEPLOYMENT_SCHEMA } from '../store/records/stored-deployment';
import { STORED_INSTANCE_SCHEMA } from '../store/records/stored-instance';
import { STORED_TASK_FAILURE_SCHEMA } from '../store/records/stored-task-failure';

/** A JSON Schema object, as ajv compiles it. */
export type SchemaObject = Readonly<Record<string, unknown>>;

/**
 * One generated module of validators: the schemas one ajv instance compiles, each exported under
 * its name. One module per instance, because ajv's options and keywords shape the code.
 */
export interface ValidatorModule {
  /** The generated module, relative to the repository root, without its extension: `<file>.js` and `<file>.d.ts`. */
  readonly file: string;
  /** Who uses it, for its header. */
  readonly usedBy: string;
  /** ajv's class: draft-07 (`ajv`, its default) or draft 2020-12 (`ajv/dist/2020`). */
  readonly draft: '07' | '2020';
  /** ajv's options, exactly those the validators had when they were compiled at start-up. */
  readonly options: Options;
  /** Keywords added to the instance (a name alone: an annotation keyword that checks nothing). */
  readonly keywords: readonly (string | KeywordDefinition)[];
  /** Export name → JSON Schema. */
  readonly schemas: Readonly<Record<string, SchemaObject>>;
}

/**
 * Every JSON Schema pacer validates with ajv, compiled when pacer is built rather than at every
 * start: ajv's compile took about 0.3 s of a 1.1 s start-up on the local cluster and 0.9 s of
 * 1.9 s over `--cluster sim`. `npm run gen:validators` writes them (ajv's standalone validation
 * code, https://ajv.js.org/standalone.html) into `src/generated/`;
 * `test/unit/validation/generated-validators.test.ts` fails when a committed file is not what
 * this list generates (a schema, an option or ajv changed without regenerating), and checks that
 * the generated validators give the same results and error objects as ajv compiling the schema at
 * run time.
 */
export const VALIDATOR_MODULES: readonly ValidatorModule[] = [
  {
    file: 'src/generated/app-validators',
    usedBy: 'src/marathon/schemas/app-shape.ts (an app, an AppUpdate)',
    draft: '07',
    options: { allErrors: true, verbose: true, strict: true, strictTypes: false },
    keywords: [],
    schemas: { app: APP_SCHEMA, update: APP_UPDATE_SCHEMA },
  },
  {
    file: 'src/generated/pod-validator',
    usedBy: 'src/marathon/schemas/pod-shape-errors.ts',
    draft: '07',
    options: { allErrors: true, allowUnionTypes: true, verbose: true },
    keywords: [ENUM_CASELESS_KEYWORD],
    schemas: { pod: POD_SCHEMA },
  },
  {
    file: 'src/generated/record-validators',
    usedBy: 'src/store/records/record-codec.ts, src/cluster/local/stored-executor.ts (stored records, first error only)',
    draft: '07',
    options: { strict: true, allErrors: false, discriminator: true },
    keywords: [],
    schemas: {
      storedRunSpec: STORED_RUN_SPEC_SCHEMA,
      storedGroup: STORED_GROUP_SCHEMA,
      storedDeployment: STORED_DEPLOYMENT_SCHEMA,
      storedInstance: STORED_INSTANCE_SCHEMA,
      storedTaskFailure: STORED_TASK_FAILURE_SCHEMA,
      storedExecutor: STORED_EXECUTOR_SCHEMA,
      storedReservation: STORED_RESERVATION_SCHEMA,
    },
  },
  {
    file: 'src/generated/scenario-definition-validators',
    usedBy: 'sim/scenario/definition-shape.ts (the API\'s app and pod schemas, closed)',
    draft: '07',
    options: { allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true },
    keywords: [ENUM_CASELESS_KEYWORD],
    schemas: { app: closedSchema(APP_SCHEMA) as SchemaObject, pod: closedSchema(POD_SCHEMA) as SchemaObject },
  },
  {
    file: 'src/generated/scenario-validator',
    usedBy: 'sim/scenario/load-scenario.ts, sim/swarm/generate-scenario.ts',
    draft: '2020',
    options: {
      allErrors: true,
      verbose: true,
      strict: true,
      // `oneOf: [{required: [app]}, …]` on timeline steps names properties declared beside it.
      strictRequired: false,
      allowUnionTypes: true,
      discriminator: true,
    },
    keywords: [EXPECTED_KEYWORD],
    schemas: { scenario: scenarioSchema },
  },
];

/** A new ajv instance of `module`'s class, options and keywords, with `extra` options (code generation). */
export function ajvFor(module: ValidatorModule, extra: Options = {}): AjvCore {
  const ajv = module.draft === '2020' ? new Ajv2020({ ...module.options, ...extra }) : new Ajv({ ...module.options, ...extra });
  for (const keyword of module.keywords) ajv.addKeyword(keyword);
  return ajv;
}

function ajvVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The two files of `module`: ajv's standalone code, a CommonJS module as tsc would emit it
 * (`<file>.js`: plain JavaScript, so neither type-checked, nor compiled by tsc — the build copies
 * it beside tsc's output, scripts/build-if-stale.mjs —, nor linted, eslint.config.mjs, nor
 * counted by c8, .c8rc.json), and its types (`<file>.d.ts`: one typed validator per schema).
 * Deterministic: the same schemas, options and ajv version give the same texts.
 */
export function validatorModuleFiles(module: ValidatorModule): { readonly file: string; readonly text: string }[] {
  const ajv = ajvFor(module, { code: { source: true, lines: true } });
  const names = Object.keys(module.schemas);
  for (const name of names) ajv.addSchema(module.schemas[name], name);
  const code = standaloneCode(ajv, Object.fromEntries(names.map((name) => [name, name])));
  const header = [
    `// Generated by \`npm run gen:validators\` (src/validation/validator-modules.ts) with ajv ${ajvVersion()}: do not edit.`,
    `// ajv's standalone validation code of ${names.join(', ')}, for ${module.usedBy}.`,
    '// A schema changed: run `npm run gen:validators` (test/unit/validation/generated-validators.test.ts fails until then).',
  ];
  const types = [
    ...header,
    "import type { ErrorObject } from 'ajv';",
    '',
    '/** A generated validator: true when `data` matches its schema; else `errors` lists why, as ajv\'s error objects. */',
    'export type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };',
    '',
    ...names.map((name) => `export declare const ${name}: Validator;`),
    '',
  ];
  return [
    { file: `${module.file}.js`, text: [...header, code.endsWith('\n') ? code : `${code}\n`].join('\n') },
    { file: `${module.file}.d.ts`, text: types.join('\n') },
  ];
}

/** Every generated file's path (relative to the repository root) and text. */
export function validatorModuleTexts(): { readonly file: string; readonly text: string }[] {
  return VALIDATOR_MODULES.flatMap(validatorModuleFiles);
}
