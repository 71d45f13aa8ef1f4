import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { REPO_ROOT, repoPath } from '../harness/repo-path';

/**
 * `npm start`'s build step (scripts/build-if-stale.mjs): tsc runs only when an input of the build
 * changed since the last successful one, so a restart or `--help` does not compile.
 */

const REPO = REPO_ROOT;

interface BuildStep {
  inputFingerprint(root: string): string;
  isStale(root: string): boolean;
  buildIfStale(root: string, log?: (line: string) => void): number;
  build(root: string): number;
  STAMP: string;
  OUTPUT: string;
}

const load = async (): Promise<BuildStep> => uncovered((await import(pathToFileURL(repoPath('scripts', 'build-if-stale.mjs')).href)) as BuildStep);

/**
 * The build step with its tsc runs collecting no coverage: tsc compiles a tiny project in a temp
 * dir, nothing of what c8 reports (src/, sim/), and under c8 collecting its coverage cost about
 * 1.5 s of CPU per compile. NODE_V8_COVERAGE is emptied (node's spawn puts back one that is
 * absent) only during each synchronous call, so no other test of this process sees it
 * (test/runner/batch.ts runs several files in one).
 */
function uncovered(step: BuildStep): BuildStep {
  const without = <A extends unknown[]>(run: (...args: A) => number) => (...args: A): number => {
    const saved = process.env.NODE_V8_COVERAGE;
    if (saved === undefined) return run(...args);
    process.env.NODE_V8_COVERAGE = '';
    try {
      return run(...args);
    } finally {
      process.env.NODE_V8_COVERAGE = saved;
    }
  };
  return { ...step, build: without(step.build), buildIfStale: without(step.buildIfStale) };
}

/**
 * A tiny project shaped like this one (src/main.ts, the two tsconfigs), with this repository's
 * node_modules. Its `lib` is this repository's (ES2022): without it tsc would also read the DOM's
 * declarations, about 3 s of CPU per compile of the five this file runs.
 */
function project(t: Test): string {
  const root = mkdtempSync(join(tmpdir(), 'pacer-build-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package.json'), '{ "name": "tiny", "private": true }\n');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'commonjs', strict: true, types: [], outDir: 'dist', rootDir: '.' }, include: ['src'] }));
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src', 'sim', 'bench'] }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer: number = 42;\n');
  return root;
}

t.test('a build runs when the output is missing, then not again until an input changes', { timeout: 120_000 }, async (t) => {
  const step = await load();
  const root = project(t);
  const logs: string[] = [];
  t.ok(step.isStale(root), 'nothing built yet');
  t.equal(step.buildIfStale(root, (l) => void logs.push(l)), 0, 'tsc succeeds');
  t.equal(logs.length, 1, 'and says it compiles');
  t.match(logs[0], /^pacer: no build yet: compiling/, 'the first time, that there was no build (not that sources changed)');
  t.notOk(step.isStale(root), 'up to date afterwards');
  t.equal(step.buildIfStale(root, (l) => void logs.push(l)), 0);
  t.equal(logs.length, 1, 'the second start compiles nothing');

  const later = new Date(Date.now() + 5000);
  utimesSync(join(root, 'src', 'main.ts'), later, later);
  t.ok(step.isStale(root), 'an edited source makes it stale');
  t.equal(step.buildIfStale(root, (l) => void logs.push(l)), 0);
  t.equal(logs.length, 2, 'and the next start compiles again');
  t.match(logs[1], /^pacer: sources changed since the last build: compiling/, 'saying why');

  writeFileSync(join(root, 'src', 'broken.ts'), 'export const x: number = "no";\n');
  t.not(step.buildIfStale(root, () => undefined), 0, 'a type error fails the build');
  t.ok(step.isStale(root), 'and a failed build leaves it stale');
});

t.test('npm run build (build) records its inputs, so the first start after it compiles nothing', { timeout: 120_000 }, async (t) => {
  const step = await load();
  const root = project(t);
  t.ok(step.isStale(root), 'nothing built yet');
  t.equal(step.build(root), 0, 'the build succeeds');
  t.notOk(step.isStale(root), 'the start after it finds the build current');
  const logs: string[] = [];
  t.equal(step.buildIfStale(root, (l) => void logs.push(l)), 0);
  t.same(logs, [], 'and does not compile');
});

t.test('what counts as an input: sources and configuration; not the benchmarks\' results', async (t) => {
  const step = await load();
  const root = project(t);
  const before = step.inputFingerprint(root);
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'run.json'), '{}');
  writeFileSync(join(root, 'README.md'), 'docs');
  t.equal(step.inputFingerprint(root), before, 'benchmark output and docs do not count');
  const cases: [string, (root: string) => void][] = [
    ['a new source', (r) => writeFileSync(join(r, 'src', 'extra.ts'), 'export {};\n')],
    ['a deleted source', (r) => rmSync(join(r, 'src', 'extra.ts'))],
    ['a changed tsconfig', (r) => writeFileSync(join(r, 'tsconfig.build.json'), '{ "extends": "./tsconfig.json" }')],
    ['a changed package.json', (r) => writeFileSync(join(r, 'package.json'), '{ "name": "tiny2" }')],
  ];
  let previous = before;
  for (const [name, change] of cases) {
    change(root);
    const now = step.inputFingerprint(root);
    t.not(now, previous, name);
    previous = now;
  }
});
