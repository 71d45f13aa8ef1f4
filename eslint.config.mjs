// ESLint flat config. The determinism bans of the architecture page apply to the core
// (src/scheduler) and to the simulator (sim/): time, randomness, timers and I/O reach them only
// through ports (Clock, Random, the loop), so that a scenario replays byte for byte.
import tseslint from 'typescript-eslint';

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
    ...wireJsonBans,
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tap/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  { files: ['src/scheduler/**/*.ts'], rules: { ...timeAndRandomBans, ...coreOnly } },
  {
    files: ['src/**/*.ts', 'sim/cluster/**/*.ts', 'sim/invariants/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/scheduler/**', 'src/marathon/**'],
    rules: { 'no-restricted-syntax': ['error', ...wireJsonBans] },
  },
  { files: ['src/cluster/**/*.ts', 'sim/cluster/**/*.ts'], rules: driverImportBans },
  // The simulator runs in virtual time; only its command-line edge (cli.ts) touches the host.
  { files: ['sim/**/*.ts'], ignores: ['sim/cli.ts', 'sim/**/cli.ts'], rules: timeAndRandomBans },
  // Tests run from two trees (source through tsx, and the compiled copy in dist/tests that
  // `npm test` runs): a path climbed from __dirname points into the wrong one. Repository files go
  // through test/harness/repo-path.ts, spawned entry points through test/harness/node-entry.ts.
  {
    files: ['test/**/*.ts'],
    ignores: ['test/harness/node-entry.ts', 'test/runner/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'CallExpression[callee.name=/^(join|resolve)$/]:has(> Identifier[name="__dirname"]):has(> Literal[value=".."])',
        message: 'Tests run from source and from dist/tests: use repoPath()/REPO_ROOT (test/harness/repo-path.ts) or nodeArgsFor() (test/harness/node-entry.ts).',
      }],
    },
  },
);
