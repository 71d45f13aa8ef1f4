import { join } from 'node:path';
import { packageRoot } from '../../src/runtime/package-root';

/**
 * The repository's root directory, the same whether a test runs from its TypeScript source
 * (`npx tap test/x.test.ts`, through tsx) or from the compiled copy `npm test` runs
 * (`dist/tests/`, see `npm run build:tests`): the nearest ancestor holding `package.json`.
 * Tests read repository files (samples, scenarios, docs) through this, never relative to
 * `__dirname`, so that they find them from either tree; nothing outside the repository.
 */
export const REPO_ROOT: string = packageRoot(__dirname);

/** A path inside the repository, from path segments relative to its root. */
export function repoPath(...segments: string[]): string {
  return join(REPO_ROOT, ...segments);
}

