import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Makes the file at `path` unwritable to this process for real, and returns how to undo it, or a
 * reason when this host cannot. Mode bits stop a normal user (`chmod 0444`), but root ignores them,
 * and the tests may run as root: there the file is made immutable instead (`chattr +i`, which
 * stops root too, on the file systems that support it: ext4, xfs, btrfs, tmpfs since Linux 6.0).
 */
export function makeUnwritable(path: string): { undo: () => void } | { cannot: string } {
  if (process.getuid?.() !== 0) {
    chmodSync(path, 0o444);
    return { undo: () => chmodSync(path, 0o644) };
  }
  const set = spawnSync('chattr', ['+i', path], { encoding: 'utf8' });
  if (set.error !== undefined || set.status !== 0) return { cannot: `running as root and chattr +i failed (${set.error?.message ?? set.stderr.trim()})` };
  const undo = (): void => {
    spawnSync('chattr', ['-i', path]);
  };
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return { undo };
  }
  undo();
  return { cannot: 'chattr +i did not stop writes here' };
}

/** tap's `skip` option for a test that needs {@link makeUnwritable}: false when it works here, else why not. */
export function unwritableSkip(): false | string {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ro-'));
  try {
    const probe = join(dir, 'probe');
    writeFileSync(probe, '');
    const made = makeUnwritable(probe);
    if ('cannot' in made) return `cannot make a file unwritable here: ${made.cannot}`;
    made.undo();
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
