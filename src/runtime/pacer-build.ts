import { findPackageRoot } from './package-root';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PacerBuild } from '../api/api-deps';

/** What `/v2/info` reports when the commit cannot be found (no git, not a checkout). */
export const UNKNOWN_COMMIT = 'unknown';

let cached: PacerBuild | undefined;

/**
 * pacer's own build: `version` from the project's package.json (the one place it is written) and
 * the git commit of the checkout it runs from, resolved once per process at start. Outside a git
 * checkout, or without git, the commit is {@link UNKNOWN_COMMIT}: reporting never stops a start.
 */
export function pacerBuild(): PacerBuild {
  cached ??= readBuild(findPackageRoot(__dirname));
  return cached;
}

/** The build of the project in `root` (a directory holding package.json; undefined = not found). */
export function readBuild(root: string | undefined): PacerBuild {
  if (root === undefined) return { version: '0.0.0', commit: UNKNOWN_COMMIT };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  return { version: typeof pkg.version === 'string' ? pkg.version : '0.0.0', commit: gitCommit(root) };
}

/** The checkout's HEAD commit (12 hex digits), or {@link UNKNOWN_COMMIT}. */
export function gitCommit(dir: string): string {
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000,
    }).trim();
    return /^[0-9a-f]{7,40}$/.test(out) ? out : UNKNOWN_COMMIT;
  } catch {
    return UNKNOWN_COMMIT;
  }
}

