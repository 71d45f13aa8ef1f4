import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import type { ErrorObject, KeywordDefinition } from 'ajv';
import { parseDocument } from 'yaml';
import * as appValidators from '../../../src/generated/app-validators';
import * as podValidator from '../../../src/generated/pod-validator';
import * as recordValidators from '../../../src/generated/record-validators';
import * as scenarioDefinitionValidators from '../../../src/generated/scenario-definition-validators';
import * as scenarioValidator from '../../../src/generated/scenario-validator';
import { withoutNulls } from '../../../src/marathon/schemas/app-shape';
import { ajvFor, VALIDATOR_MODULES, type ValidatorModule, validatorModuleTexts } from '../../../src/validation/validator-modules';
import { repoPath } from '../../harness/repo-path';
import { makePodJson } from '../marathon/convert/fixtures/builders';
import { wireCorpus } from '../marathon/fixtures/wire-corpus';

/**
 * The validators pacer runs are compiled when it is built (src/validation/validator-modules.ts,
 * `npm run gen:validators`), not at start-up. Two things make that safe:
 *
 * 1. the committed files in src/generated are exactly what the schemas generate now, so that a
 *    changed schema, option, keyword or ajv version cannot leave old validators in place;
 * 2. each generated validator answers as ajv compiling the same schema at run time did (before
 *    the validators were generated): the same result and the same error objects — keyword,
 *    instance path, schema path, params, message, and with `verbose` the schema, parent schema and
 *    data — for thousands of definitions, records and scenarios, valid and broken. The reference
 *    keeps the pod schemas' `enumCaseless` keyword as it was, a `validate` function: the
 *    generated code's keyword (defined by code generation, which standalone code needs) must
 *    agree with it.
 */

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The generated modules, by file: a module added to VALIDATOR_MODULES must be added here. */
const GENERATED: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'src/generated/app-validators': appValidators,
  'src/generated/pod-validator': podValidator,
  'src/generated/record-validators': recordValidators,
  'src/generated/scenario-definition-validators': scenarioDefinitionValidators,
  'src/generated/scenario-validator': scenarioValidator,
};

/** The `enumCaseless` keyword as pacer defined it before its validators were generated. */
const ENUM_CASELESS_AS_BEFORE: KeywordDefinition = {
  keyword: 'enumCaseless',
  type: 'string',
  schemaType: 'array',
  errors: false,
  validate: (allowed: readonly string[], data: string) => allowed.some((v) => v.toLowerCase() === data.toLowerCase()),
};

/** `module` as its validators were compiled at start-up: the same options, the former keyword definitions. */
function asBefore(module: ValidatorModule): ValidatorModule {
  return {
    ...module,
    keywords: module.keywords.map((k) => (typeof k === 'object' && k.keyword === 'enumCaseless' ? ENUM_CASELESS_AS_BEFORE : k)),
  };
}

/** The first line where two texts differ (1-based), with both lines. */
function firstDifference(a: string, b: string): string {
  const as = a.split('\n');
  const bs = b.split('\n');
  for (let i = 0; i < Math.max(as.length, bs.length); i += 1) {
    if (as[i] !== bs[i]) return `line ${i + 1}: committed ${JSON.stringify(as[i]?.slice(0, 200))}, generated ${JSON.stringify(bs[i]?.slice(0, 200))}`;
  }
  return 'none';
}

t.test('the committed validators are what the schemas generate (else run npm run gen:validators)', async (t) => {
  const texts = validatorModuleTexts();
  t.strictSame(VALIDATOR_MODULES.map((m) => m.file).sort(), Object.keys(GENERATED).sort(), 'every generated module is listed here');
  for (const { file, text } of texts) {
    const committed = readFileSync(repoPath(file), 'utf8');
    t.ok(committed === text, `${file} is up to date`, { firstDifference: firstDifference(committed, text) });
  }
  const onDisk = readdirSync(repoPath('src', 'generated')).map((f) => `src/generated/${f}`).sort();
  t.strictSame(onDisk, texts.map((m) => m.file).sort(), 'src/generated holds nothing else');
});

/** A small deterministic generator of indices (a linear congruential one): the same sample every run. */
function sampler(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

type Json = unknown;

/** Every path into `doc` (object keys and array indices), the root's `[]` included. */
function pathsOf(doc: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(doc)) doc.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (typeof doc === 'object' && doc !== null) for (const [k, v] of Object.entries(doc)) pathsOf(v, [...at, k], out);
  return out;
}

/** `doc` with the value at `path` replaced by `change(value)` (undefined deletes an object's key). */
function changed(doc: Json, path: readonly (string | number)[], change: (value: Json) => Json): Json {
  if (path.length === 0) return change(doc);
  const [head, ...rest] = path;
  if (Array.isArray(doc)) return doc.map((v, i) => (i === head ? changed(v, rest, change) : v));
  const out: Record<string, Json> = { ...(doc as Record<string, Json>) };
  const next = changed(out[head as string], rest, change);
  if (next === undefined) delete out[head as string];
  else out[head as string] = next;
  return out;
}

/** What a field may become: wrong types, bounds, lengths, case changes, a missing or an unknown field. */
const CHANGES: readonly ((value: Json) => Json)[] = [
  () => 'x', () => '', () => 1.5, () => -1, () => 0, () => 1e12, () => true, () => null, () => [], () => ({}),
  () => [1, 'a', null], () => ({ a: 1 }), () => 'Y'.repeat(600),
  (v) => (typeof v === 'string' ? v.toLowerCase() : v), (v) => (typeof v === 'string' ? v.toUpperCase() : v),
  (v) => (typeof v === 'string' ? `${v}x` : v), (v) => (typeof v === 'number' ? -v - 1 : v), (v) => (typeof v === 'number' ? v + 0.5 : v),
  () => undefined,
  (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, zzUnknown: 1 } : v),
  (v) => (Array.isArray(v) ? [...v, ...v] : v), (v) => (Array.isArray(v) ? [] : v),
];

/** `docs` and `count` changed copies of them, each one field changed one way, sampled with `seed`. */
function withVariants(docs: readonly Json[], count: number, seed: number): Json[] {
  const next = sampler(seed);
  const paths = docs.map((doc) => pathsOf(doc));
  const out: Json[] = [...docs];
  for (let i = 0; i < count; i += 1) {
    const d = next(docs.length);
    const path = paths[d][next(paths[d].length)];
    out.push(changed(docs[d], path, CHANGES[next(CHANGES.length)]));
  }
  return out;
}

const corpus = wireCorpus();
const apps = corpus.filter((e) => e.kind === 'app').map((e) => e.json);
/** The corpus's pods, and pods whose `enumCaseless` fields hold each value in other cases, or a value not listed. */
const pods = [
  ...corpus.filter((e) => e.kind === 'pod').map((e) => e.json),
  ...['OLDEST_FIRST', 'youngest_first', 'Oldest_First', 'OLDEST', 'first', ''].map((killSelection) => makePodJson({ scheduling: { killSelection } })),
  ...['HTTP', 'https', 'Http', 'FTP', 'httpx'].map((scheme) => makePodJson({}, {
    endpoints: [{ name: 'e', containerPort: 80, protocol: ['http'] }], healthCheck: { http: { endpoint: 'e', scheme } },
  })),
];

interface StoreFixture { readonly records: readonly { readonly kind: string; readonly record: Json }[] }
const storeRecords = ['format-2.json', 'format-3.json', 'format-7.json']
  .flatMap((f) => (JSON.parse(readFileSync(repoPath('test', 'fixtures', 'store', f), 'utf8')) as StoreFixture).records);
const recordsOf = (...kinds: string[]) => storeRecords.filter((r) => kinds.includes(r.kind)).map((r) => r.record);

/** A stored executor of the local cluster with every optional field (StoredExecutorV1). */
const EXECUTOR: Json = {
  executorKey: 'k1', executorId: 'e1', agentId: 'a1', group: true,
  allocation: [
    { reservedFor: 'web', cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0, ports: [[31000, 31001]] },
    { reservedFor: 'db', reservationId: 'i1', volumes: [{ persistenceId: 'i1#vol0', containerPath: 'data', diskMilli: 1000 }], cpusMilli: 100, memMilli: 0, diskMilli: 1000, gpus: 0, ports: [] },
  ],
  killDeadlineMs: 5000,
  tasks: [{
    taskId: 't1', runSpecId: '/web', instanceId: 'i1', containerName: 'c', pid: 42, startTime: '123', sandbox: '/tmp/sb/t1',
    hostPorts: [31000], resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, killGracePeriodMs: 3000,
    launchedAtMs: 1, healthCheck: { check: { protocol: 'MESOS_HTTP' }, port: 31000 }, env: { A: 'b' }, state: 'TASK_RUNNING', healthy: true,
  }],
};

/** A dynamic reservation of the local cluster's state file (StoredLocalReservationV1). */
const RESERVATION: Json = {
  v: 1, agentId: 'a1', role: 'db', reservationId: 'i1', resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 1000, gpus: 0 },
  ports: [[31000, 31001]], volumes: [{ persistenceId: 'i1#vol0', containerPath: 'data', diskMilli: 1000 }],
};

function scenarioFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) return scenarioFiles(path);
    return f.endsWith('.yaml') ? [path] : [];
  });
}
const scenarios = scenarioFiles(repoPath('scenarios')).map((f) => parseDocument(readFileSync(f, 'utf8'), { merge: true }).toJS() as Json);

/** The inputs each schema is checked with, by module file and export name. */
const INPUTS: Readonly<Record<string, Readonly<Record<string, readonly Json[]>>>> = {
  'src/generated/app-validators': {
    app: withVariants([...apps, ...apps.map(withoutNulls)], 3000, 1),
    update: withVariants(apps.map(withoutNulls), 1500, 2),
  },
  'src/generated/pod-validator': { pod: withVariants(pods, 3000, 3) },
  'src/generated/record-validators': {
    storedRunSpec: withVariants(recordsOf('runSpec', 'runSpecVersion'), 300, 4),
    storedGroup: withVariants([...recordsOf('root', 'rootVersion'), { id: '/' }, { version: 'v' }, { id: 1, version: 'v' }], 600, 5),
    storedDeployment: withVariants(recordsOf('deployment'), 600, 6),
    storedInstance: withVariants(recordsOf('instance'), 1500, 7),
    storedExecutor: withVariants([EXECUTOR], 600, 8),
    storedReservation: withVariants([RESERVATION], 600, 12),
    storedTaskFailure: withVariants([...recordsOf('taskFailure'), { appId: '/a', taskId: 't', state: 'TASK_LOST', message: '', host: '', version: 'v', timestamp: 't' }], 600, 13),
  },
  'src/generated/scenario-definition-validators': {
    app: withVariants(apps.map(withoutNulls), 2000, 9),
    pod: withVariants(pods, 2000, 10),
  },
  'src/generated/scenario-validator': { scenario: withVariants(scenarios, 1500, 11) },
};

/** The errors' keywords, counted. */
function keywordCounts(errors: readonly ErrorObject[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of errors) counts.set(e.keyword, (counts.get(e.keyword) ?? 0) + 1);
  return counts;
}

for (const module of VALIDATOR_MODULES) {
  t.test(`${module.file}: the same results and errors as ajv compiling the schemas at run time`, async (t) => {
    const reference = ajvFor(asBefore(module));
    const generated = GENERATED[module.file];
    for (const [name, schema] of Object.entries(module.schemas)) {
      const before = reference.compile(schema) as Validate;
      const now = generated[name] as Validate;
      t.type(now, 'function', `${name} is exported`);
      const inputs = INPUTS[module.file]?.[name] ?? [];
      let valid = 0;
      const mismatches: unknown[] = [];
      const keywords = new Map<string, number>();
      for (const input of inputs) {
        const expected = before(input);
        const actual = now(input);
        if (expected) valid += 1;
        const expectedErrors = expected ? null : before.errors ?? null;
        const actualErrors = actual ? null : now.errors ?? null;
        if (expected !== actual || !isDeepStrictEqual(expectedErrors, actualErrors)) {
          mismatches.push({ input, expected, actual, expectedErrors: JSON.stringify(expectedErrors)?.slice(0, 2000), actualErrors: JSON.stringify(actualErrors)?.slice(0, 2000) });
        }
        for (const [k, n] of keywordCounts(expectedErrors ?? [])) keywords.set(k, (keywords.get(k) ?? 0) + n);
      }
      t.strictSame(mismatches.slice(0, 3), [], `${name}: ${inputs.length} inputs, none answered differently`);
      t.ok(valid > 0 && valid < inputs.length, `${name}: both valid (${valid}) and invalid (${inputs.length - valid}) inputs`);
      t.ok(keywords.size >= 2, `${name}: the errors come from several keywords (${[...keywords.keys()].join(', ')})`);
      if (JSON.stringify(schema).includes('"enumCaseless"')) t.ok(keywords.has('enumCaseless'), `${name}: enumCaseless failures compared`);
    }
  });
}

t.test('enumCaseless: any case of a listed value passes, anything else fails with ajv\'s error of the keyword', async (t) => {
  const validate = podValidator.pod as Validate;
  const pod = (killSelection: string) => makePodJson({ scheduling: { killSelection } });
  for (const value of ['OLDEST_FIRST', 'oldest_first', 'Oldest_First', 'youngest_FIRST']) t.ok(validate(pod(value)), value);
  t.notOk(validate(pod('OLDEST')), 'OLDEST');
  const error = (validate.errors ?? []).find((e) => e.keyword === 'enumCaseless');
  t.match(error, {
    instancePath: '/scheduling/killSelection', schemaPath: '#/properties/scheduling/properties/killSelection/enumCaseless', keyword: 'enumCaseless',
    message: 'must pass "enumCaseless" keyword validation', schema: ['YOUNGEST_FIRST', 'OLDEST_FIRST'], data: 'OLDEST',
  });
  t.strictSame(error?.params, {}, 'no params');
});
