// dependency-cruiser: the rules about who may import whom (issue 12, R3: a layered core).
// `npm run lint` runs it after ESLint (`npm run -s lint:deps` alone). Type-only imports count:
// a cycle through `import type` is still a cycle of the design.

// The core's layers, lowest first (issue 12, R3; docs/architecture.md, "The core's layers"). A
// module may import its own layer and the layers below it, never one above.
const core = '^src/scheduler/';
const layers = [
  { name: 'model', dirs: ['model', 'kernel', 'ports', 'groups', 'constraints', 'scheduler-options\\.ts'] },
  { name: 'instance tracker', dirs: ['instances', 'kill', 'health', 'readiness', 'unreachable', 'state', 'events', 'reconcile'] },
  { name: 'launch queue and matcher', dirs: ['launch-queue', 'matcher', 'launcher', 'offers'] },
  { name: 'deployment executor', dirs: ['deployments'] },
  { name: 'commands', dirs: ['commands'] },
];
const inLayers = (ls) => `${core}(${ls.flatMap((l) => l.dirs).join('|')})(/|$)`;
const layerRules = layers.slice(0, -1).map((layer, i) => ({
  name: `core-layer-${layer.name.replace(/ /g, '-')}`,
  severity: 'error',
  comment: `The core's ${layer.name} layer imports only itself and the layers below it.`,
  from: { path: inLayers([layer]) },
  to: { path: `${inLayers(layers.slice(i + 1))}|${core}[^/]+\\.ts$`, pathNot: inLayers(layers.slice(0, i + 1)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: a module and what it imports form a layer below it.',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      // Issue 12, problem 3: a status update's reactions are the instance tracker's ordered list
      // (instances/status-handlers.ts), run once per update; on-status.ts applies the update and
      // runs that list, and never calls a reaction itself.
      name: 'instance-status-handlers',
      severity: 'error',
      comment: 'on-status.ts reacts to a status update only through the ordered status handlers (instances/status-handlers.ts).',
      from: { path: `${core}instances/on-status\\.ts$` },
      to: { path: `${core}(health|readiness|unreachable)/|${core}instances/(backoff|converge|converge-restart|instance-lifecycle|finish-delete|record-task-failure)\\.ts$` },
    },
    {
      name: 'core-surface',
      severity: 'error',
      comment: 'Outside the core, import it through its surface (src/scheduler/index.ts), its model and its ports; tests may import internals.',
      from: { path: '^(src|sim|bench)/', pathNot: '^src/scheduler/' },
      to: { path: '^src/scheduler/', pathNot: '^src/scheduler/(index\\.ts$|model/|ports/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|coverage|\\.tap)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
