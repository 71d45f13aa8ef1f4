import { join } from 'node:path';
import { repoPath } from './repo-path';

/**
 * True when this code runs from the compiled test tree (`dist/tests/`, what `npm test` runs)
 * rather than from TypeScript source through tsx (`npx tap test/x.test.ts`).
 */
export const RUNS_COMPILED: boolean = __filename.endsWith('.js');

/** The root of the tree this module runs from: the repository, or `dist/tests/` (this file is `test/harness/` in both). */
const TREE_ROOT = join(__dirname, '..', '..');

/**
 * The `node` arguments that run one of the repository's TypeScript entry points (`entry` is
 * relative to the repository root, e.g. `src/main.ts`), for tests that spawn it: its compiled
 * copy when the tests run compiled (no TypeScript loader to start in the child), else the source
 * through tsx. Either way the child runs the code under test and is covered by c8.
 */
export function nodeArgsFor(entry: string): string[] {
  if (!entry.endsWith('.ts')) throw new Error(`not a TypeScript entry point: ${entry}`);
  return RUNS_COMPILED ? [join(TREE_ROOT, entry.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', repoPath(entry)];
}
