import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The host's `CliIo.checkOutput`: throws when no file can be written at `path` because its
 * directory is missing or not a directory, or `path` is a directory. (Permissions are left to the
 * write itself.)
 */
export function checkOutputPath(path: string): void {
  const dir = dirname(path);
  const dirStat = statSync(dir, { throwIfNoEntry: false });
  if (dirStat === undefined) throw new Error(`no such directory ${dir}`);
  if (!dirStat.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) throw new Error('it is a directory');
}
