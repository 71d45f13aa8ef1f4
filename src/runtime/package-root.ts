import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The nearest folder at or above `from` holding a `package.json`: the repository, whichever tree
 * the calling code runs from (`src/` through tsx, `dist/src/` after `npm run build`, or the test
 * tree `dist/tests/`). Undefined when there is none (pacer copied without its package.json).
 */
export function findPackageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** {@link findPackageRoot}, for code that cannot run without the repository: throws when there is none. */
export function packageRoot(from: string): string {
  const root = findPackageRoot(from);
  if (root === undefined) throw new Error(`no package.json above ${from}`);
  return root;
}
