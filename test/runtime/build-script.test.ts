import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../harness/repo-path';

/**
 * `npm run build`'s command line (scripts/build.mjs), and the benchmarks' scripts building through
 * it only when a source changed (`--if-stale`, as `npm start` does): a benchmark's `--help` or
 * second run compiles nothing.
 */

t.test('an unknown argument is one line naming the options, exit 2, before any build', async (t) => {
  const run = spawnSync(process.execPath, [repoPath('scripts', 'build.mjs'), '--bogus'], { encoding: 'utf8' });
  t.equal(run.status, 2);
  t.equal(run.stderr, 'npm run build: unknown argument --bogus (only --no-check, --if-stale)\n');
  t.equal(run.stdout, '');
});

t.test('every benchmark script builds with --if-stale before it runs', async (t) => {
  const scripts = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const benches = Object.entries(scripts).filter(([name]) => name.startsWith('bench:') || name.startsWith('profile:'));
  t.ok(benches.length >= 8, `the benchmarks' scripts (${benches.length})`);
  for (const [name, command] of benches) t.match(command, /^node scripts\/build\.mjs --if-stale && /, name);
});
