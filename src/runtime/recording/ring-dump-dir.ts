import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where `POST /pacer/v1/recording` writes the ring: `recordings/ring-<UTC time>` next to the store
 * file (`.pacer/recordings/ring-2026-11-25T17-02-11.530Z`), a fresh directory each time. A path
 * never comes from the request: a client cannot make pacer write anywhere else.
 */
export function ringDumpDir(storePath: string, nowMs: number = Date.now()): string {
  const base = join(dirname(storePath), 'recordings', `ring-${new Date(nowMs).toISOString().replace(/:/g, '-')}`);
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  return dir;
}
