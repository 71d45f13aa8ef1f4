// The dependency rules of `npm run lint` (.dependency-cruiser.cjs; docs/architecture.md, "The
// core's layers") fire: dependency-cruiser, run with the repository's own configuration over a
// tiny tree that breaks each rule once (test/fixtures/layers), reports exactly those imports, a
// cycle through type-only imports included, and nothing for the imports that are allowed.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { PATIENCE_MS } from '../../harness/wait';
import { repoPath } from '../../harness/repo-path';

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

function cruise(): readonly Violation[] {
  const r = spawnSync(process.execPath, [
    repoPath('node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
    'src', '--config', repoPath('.dependency-cruiser.cjs'), '--output-type', 'json',
  ], { cwd: repoPath('test', 'fixtures', 'layers'), encoding: 'utf8', timeout: PATIENCE_MS });
  if (r.status !== 0 && r.stdout === '') throw new Error(`dependency-cruiser failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

t.test('each rule refuses what it names, and nothing else', async (t) => {
  // A cycle is reported once, at the import that closes it.
  const found = cruise().map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  t.same(found, [
    'core-layer-model: src/scheduler/model/up.ts -> src/scheduler/instances/tracker.ts',
    'core-surface: src/api/uses-internal.ts -> src/scheduler/instances/tracker.ts',
    'instance-status-handlers: src/scheduler/instances/on-status.ts -> src/scheduler/health/checks.ts',
    'no-circular: src/scheduler/model/a.ts -> src/scheduler/model/b.ts',
  ]);
});
