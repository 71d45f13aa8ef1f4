// ESLint flat config. The determinism bans of the architecture page apply to the core
// (src/scheduler) and to the simulator (sim/): time, randomness, timers and I/O reach them only
// through ports (Clock, Random, the loop), so that a scenario replays byte for byte.
import tseslint from 'typescript-eslint';
import instanceWrites from './scripts/lint/instance-writes.mjs';

const timeAndRandomBans = {
  'no-restricted-globals': ['error',
    { name: 'Date', message: 'Use the Clock port (kernel/iso-time for formatting).' },
    { name: 'setTimeout', message: 'Schedule through the loop (Timers port).' },
    { name: 'setInterval', message: 'Schedule through the loop (Timers port).' },
    { name: 'setImmediate', message: 'Schedule through the loop (Timers port).' },
    { name: 'queueMicrotask', message: 'The core is synchronous.' },
    { name: 'performance', message: 'Use the Clock port.' },
    { name: 'crypto', message: 'IDs come from the Random port.' },
  ],
  'no-restricted-properties': ['error',
    { object: 'Math', property: 'random', message: 'Use the Random port.' },
    { object: 'process', property: 'hrtime', message: 'Use the Clock port.' },
  ],
};

// Issue 12 (R1): one typed run-spec model. Marathon's JSON of apps and pods is read only by the
// converter (src/marathon/convert) and written only by the renderers (src/marathon/render, and the
// API's src/api/render on top of them); everything else works on the model (src/scheduler/model).
// The model has no `definition` and no `wire`: these bans keep a wire copy from coming back.
const wireJsonBans = [
  { selector: 'MemberExpression[property.name="definition"]', message: 'No wire JSON outside src/marathon: read the typed run spec (src/scheduler/model; docs/architecture.md, "The run-spec model").' },
  { selector: 'MemberExpression[property.name="wire"]', message: 'No wire JSON outside src/marathon: read the typed run spec (src/scheduler/model).' },
];

// Drivers get a resolved TaskLaunch (src/scheduler/model/launch.ts), never the run spec or Marathon's JSON.
const driverImportBans = {
  'no-restricted-imports': ['error', {
    patterns: [
      { group: ['**/scheduler/model/run-spec', '**/scheduler/model/app', '**/scheduler/model/pod'], message: 'Drivers get a resolved TaskLaunch, not the run spec.' },
      { group: ['**/marathon/**'], message: 'Drivers never see Marathon\'s JSON: they get a resolved TaskLaunch.' },
    ],
  }],
};

const coreOnly = {
  'no-restricted-globals': ['error',
    ...timeAndRandomBans['no-restricted-globals'].slice(1),
    { name: 'process', message: 'The core reaches the world only through its ports.' },
    { name: 'require', message: 'Use imports.' },
  ],
  'no-restricted-imports': ['error', {
    paths: ['fs', 'fs/promises', 'http', 'https', 'http2', 'net', 'dgram', 'child_process', 'os', 'crypto', 'worker_threads', 'timers', 'timers/promises', 'perf_hooks', 'process']
      .map((name) => ({ name, message: 'The core does no I/O: use a port.' })),
    patterns: [
      { group: ['node:*'], message: 'The core does no I/O: use a port.' },
      { group: ['**/sim/**', '**/api/**', '**/cluster/**', '**/store/**'], message: 'Adapters depend on the core, never the reverse.' },
    ],
  }],
  'no-restricted-syntax': ['error',
    { selector: ':function[async=true]', message: 'The core is synchronous: no async.' },
    { selector: 'AwaitExpression', message: 'The core is synchronous: no await.' },
    { selector: 'NewExpression[callee.name="Promise"]', message: 'The core is synchronous: no promises.' },
    // An argument is evaluated before the call: a message built from values (a template with
    // values, a concatenation) is built at every call, a string of garbage per placement on hot
    // paths. test/unit/lint/assert-messages.test.ts proves that the rule fires.
    {
      selector: 'CallExpression[callee.name="assert"][arguments.0.raw!="false"]:matches([arguments.1.type="TemplateLiteral"][arguments.1.expressions.length>0], [arguments.1.type="BinaryExpression"])',
      message: 'The message is built at every call: write `if (!condition) assert(false, message)`.',
    },
    ...wireJsonBans,
  ],
};

// The master model (src/master) runs inside the simulator, whose traces replay exactly, and on
// real time in the local cluster: time and timers reach it only through its MasterClock port, and
// it does no I/O. It depends on the core's model types only, never on a cluster or the core's
// internals.
const masterOnly = {
  ...coreOnly,
  'no-restricted-imports': ['error', {
    paths: coreOnly['no-restricted-imports'][1].paths.map((p) => ({ ...p, message: 'The master model does no I/O: use its ports.' })),
    patterns: [
      { group: ['node:*'], message: 'The master model does no I/O: use its ports.' },
      { group: ['**/sim/**', '**/api/**', '**/cluster/**', '**/store/**', '**/runtime/**'], message: 'Clusters plug into the master model, never the reverse.' },
      { regex: 'scheduler/(?!model/)', message: 'The master model reads the core\'s model types only.' },
    ],
  }],
};

// One master model (issue 12, problem 4): the simulator (sim/), the local cluster
// (src/cluster/local) and the wire fake Mesos master of the tests play the Mesos master through
// src/master's facade (Master, its ports and types, and the executor book), and may not keep an
// allocator, ledger, ACCEPT check or reconciler of their own: neither by importing the model's
// internals to assemble a second one, nor by declaring one. test/unit/master/one-master-model.test.ts
// proves that these rules fire.
const masterInternals = ['offer-desk', 'agent-ledger', 'accept-check', 'reconciler', 'update-book', 'master-state', 'agent-lifecycle', 'role-suppression'];
const oneMasterModel = {
  'no-restricted-imports': ['error', {
    patterns: [{
      regex: `master/(${masterInternals.join('|')})$`,
      message: 'Use the master model through its facade (src/master/master.ts): one allocator, ledger and ACCEPT check for every cluster.',
    }],
  }],
  'no-restricted-syntax': ['error',
    {
      selector: 'ClassDeclaration[id.name=/(OfferDesk|Allocator|Ledger|AgentBooks|LaunchCheck|AcceptCheck|Reconciler|UpdateBook|ExecutorBook)$/]',
      message: 'The master\'s rules live once, in src/master: plug into the master model instead of writing another.',
    },
    {
      selector: 'FunctionDeclaration[id.name=/^(subtract|union|normalize)Ranges$/]',
      message: 'Port range algebra lives in src/master/port-ranges.ts.',
    },
  ],
};

// Issue 12 (R2): only the core edits the root group. The API checks shape, converts and submits a
// change (`changeRoot`, `setEnforceRole`, `previewChange`); it may not import the tree edits, the
// version stamping or the run-spec rewrites that build a new root (types stay importable: the API
// builds a `GroupUpdate`). test/unit/lint/api-root-edits.test.ts proves that the rule fires.
const rootEditModules = [
  'groups/(root-group|with-run-spec|without-run-spec|put-group|remove-group|update-group|set-enforce-role|group-update|scale-group|revert-group|map-run-specs|group-tree|versioning|version-after)',
  'commands/(put-run-spec|root-after|change-root|set-group-enforce-role|deploy-change)',
];
const apiRootEditBans = {
  '@typescript-eslint/no-restricted-imports': ['error', {
    patterns: [{
      regex: `scheduler/(${rootEditModules.join('|')})$`,
      allowTypeImports: true,
      message: 'Only the core edits the root group: submit a change (changeRoot, setEnforceRole) or ask previewChange (issue 12 R2).',
    }, {
      // The core's surface (issue 12 R3) exports `withRunSpec` for the simulator and benchmarks.
      regex: 'scheduler/index$',
      importNames: ['withRunSpec'],
      message: 'Only the core edits the root group: submit a change (changeRoot, setEnforceRole) or ask previewChange (issue 12 R2).',
    }],
  }],
};

// Tests run from two trees (source through tsx, and the compiled copy in dist/tests that
// `npm test` runs): a path climbed from __dirname points into the wrong one. Repository files go
// through test/harness/repo-path.ts, spawned entry points through test/harness/node-entry.ts.
const noDirnameClimb = {
  selector: 'CallExpression[callee.name=/^(join|resolve)$/]:has(> Identifier[name="__dirname"]):has(> Literal[value=".."])',
  message: 'Tests run from source and from dist/tests: use repoPath()/REPO_ROOT (test/harness/repo-path.ts) or nodeArgsFor() (test/harness/node-entry.ts).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tap/**', 'bench/results/**'] },
  // ajv's standalone validation code and its types, written by `npm run gen:validators`
  // (src/validation/validator-modules.ts): checked by its test against the schemas, not by lint.
  { ignores: ['src/generated/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  { files: ['src/scheduler/**/*.ts'], rules: { ...timeAndRandomBans, ...coreOnly } },
  { files: ['src/master/**/*.ts'], rules: { ...timeAndRandomBans, ...masterOnly } },
  // The simulator runs in virtual time; only its command-line edge (cli.ts) touches the host.
  { files: ['sim/**/*.ts'], ignores: ['sim/cli.ts', 'sim/**/cli.ts'], rules: timeAndRandomBans },
  {
    files: ['test/**/*.ts'],
    ignores: ['test/harness/node-entry.ts', 'test/runner/**'],
    rules: { 'no-restricted-syntax': ['error', noDirnameClimb] },
  },
  { files: ['sim/**/*.ts', 'src/cluster/local/**/*.ts'], rules: oneMasterModel },
  {
    files: ['test/cluster/mesos/fake-master/**/*.ts'],
    rules: { ...oneMasterModel, 'no-restricted-syntax': [...oneMasterModel['no-restricted-syntax'], noDirnameClimb] },
  },
  // Issue 12 (R1), last so that it adds to the rules above for the same files: no wire JSON
  // outside src/marathon, and drivers get a resolved TaskLaunch (see wireJsonBans, driverImportBans).
  {
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/scheduler/**', 'src/master/**', 'src/marathon/**', 'src/cluster/local/**'],
    rules: { 'no-restricted-syntax': ['error', ...wireJsonBans] },
  },
  { files: ['src/cluster/**/*.ts'], ignores: ['src/cluster/local/**'], rules: driverImportBans },
  { files: ['src/api/**/*.ts'], rules: apiRootEditBans },
  // Issue 12 (problem 3): the instance tracker is the one owner of instance mutation; nothing else
  // writes an instance's fields or touches its dirty set (scripts/lint/instance-writes.mjs, proven
  // by test/unit/lint/instance-writes.test.ts). By field name, in all of src/, sim/ and bench/ but
  // the tracker (and the state, which owns the dirty set) and the drivers and the master model:
  // they receive resolved TaskLaunches, never instances (driverImportBans, oneMasterModel), and
  // keep task records of their own named as Mesos names them (`state`, `healthy`, `message`).
  {
    files: ['src/**/*.ts', 'sim/**/*.ts', 'bench/**/*.ts'],
    ignores: [
      'src/scheduler/instances/instance-tracker.ts', 'src/scheduler/state/scheduler-state.ts',
      'src/cluster/**', 'src/master/**', 'sim/cluster/**',
    ],
    plugins: { pacer: { rules: { 'instance-writes': instanceWrites } } },
    rules: { 'pacer/instance-writes': 'error' },
  },
  {
    files: ['sim/cluster/**/*.ts', 'sim/invariants/**/*.ts', 'src/cluster/local/**/*.ts'],
    rules: { 'no-restricted-syntax': [...oneMasterModel['no-restricted-syntax'], ...wireJsonBans] },
  },
  {
    files: ['sim/cluster/**/*.ts', 'src/cluster/local/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [...oneMasterModel['no-restricted-imports'][1].patterns, ...driverImportBans['no-restricted-imports'][1].patterns],
      }],
    },
  },
);
