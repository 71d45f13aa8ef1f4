import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { gitCommit, pacerBuild, readBuild, UNKNOWN_COMMIT } from '../../src/runtime/pacer-build';
import { REPO_ROOT } from '../harness/repo-path';

const ROOT = REPO_ROOT;

/** What git itself says the checkout's commit is, or undefined when this is no checkout. */
function headCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

t.test("pacer's version is package.json's, read from the file (not repeated by hand)", async (t) => {
  const pkg = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: ROOT, encoding: 'utf8' })) as { version: string };
  t.equal(pacerBuild().version, pkg.version);
  t.equal(pacerBuild(), pacerBuild(), 'read once per process');
  const dir = mkdtempSync(join(tmpdir(), 'pacer-build-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '9.8.7' }));
  t.same(readBuild(dir), { version: '9.8.7', commit: UNKNOWN_COMMIT }, 'another package, outside any git checkout');
});

t.test('the commit is the checkout\'s HEAD, or "unknown" outside a checkout', async (t) => {
  const head = headCommit();
  if (head === undefined) t.equal(gitCommit(ROOT), UNKNOWN_COMMIT, 'not a checkout here');
  else t.ok(head.startsWith(gitCommit(ROOT)) && gitCommit(ROOT).length === 12, `${gitCommit(ROOT)} is HEAD ${head}`);
  const dir = mkdtempSync(join(tmpdir(), 'pacer-nogit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.equal(gitCommit(dir), UNKNOWN_COMMIT);
  t.equal(gitCommit(join(dir, 'does-not-exist')), UNKNOWN_COMMIT, 'a missing directory is no failure either');
});
