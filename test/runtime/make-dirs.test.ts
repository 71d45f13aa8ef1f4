import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { makeDirs } from '../../src/runtime/make-dirs';

/**
 * makeDirs (src/runtime/make-dirs.ts) makes a directory and its missing parents like
 * `mkdirSync(path, { recursive: true })`, and returns an error where Node's loops forever (a path
 * under /proc).
 */

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-make-dirs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('makes what is missing, keeps what exists', async (t) => {
  const root = scratch();
  writeFileSync(join(root, 'file'), 'x');
  mkdirSync(join(root, 'there'));
  const cases: { name: string; path: string }[] = [
    { name: 'one level', path: join(root, 'a') },
    { name: 'three levels', path: join(root, 'b', 'c', 'd') },
    { name: 'exists already', path: join(root, 'there') },
    { name: 'below an existing one', path: join(root, 'there', 'e', 'f') },
    { name: 'relative, with ..', path: join(root, 'g', '..', 'h') },
  ];
  for (const c of cases) {
    makeDirs(c.path);
    t.ok(statSync(c.path).isDirectory(), c.name);
  }
});

t.test('refuses with the file system\'s error, and returns', async (t) => {
  const root = scratch();
  writeFileSync(join(root, 'file'), 'x');
  const cases: { name: string; path: string; code: string; skip?: string }[] = [
    { name: 'a file in the way', path: join(root, 'file', 'sub'), code: 'ENOTDIR' },
    { name: 'a file where the directory should be', path: join(root, 'file'), code: 'EEXIST' },
    { name: 'under /proc (Node\'s recursive mkdir never returns here)', path: '/proc/pacer-cannot-be-here/a', code: 'ENOENT', ...(existsSync('/proc/self') ? {} : { skip: 'no /proc here' }) },
  ];
  for (const c of cases) {
    if (c.skip !== undefined) {
      t.comment(`${c.name}: not run, ${c.skip}`);
      continue;
    }
    t.throws(() => makeDirs(c.path), { code: c.code }, c.name);
  }
});
