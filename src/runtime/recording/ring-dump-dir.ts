import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

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

/**
 * Ring dumps kept in `recordings/` (docs/limits.md, "What pacer keeps"): each is up to the ring's
 * 64 Mi characters, and every `POST /pacer/v1/recording` made one more, so a client could fill the
 * disk (64 MB a call). Writing one more removes the oldest beyond this count.
 */
export const RING_DUMPS_KEPT = 10;

/** A directory `ringDumpDir` made (`ring-2026-11-25T17-02-11.530Z`, or with `-2`…). */
const RING_DUMP_NAME = /^ring-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z(-\d+)?$/;

/**
 * Writes a ring dump with `dump` into a fresh {@link ringDumpDir}, then removes the oldest ring
 * dumps of that `recordings/` directory (by modification time, then name) beyond `keep`; the one
 * just written is always kept, and nothing there that `ringDumpDir` did not name is touched.
 * A `dump` that writes nothing (undefined: `--record_ring 0`) removes nothing.
 */
export function dumpRingKeeping<T>(storePath: string, dump: (dir: string) => T, keep: number = RING_DUMPS_KEPT): T {
  const dir = ringDumpDir(storePath);
  const result = dump(dir);
  const recordings = dirname(dir);
  if (result === undefined || !existsSync(recordings)) return result; // --record_ring 0: nothing written
  const written = basename(dir);
  const older = readdirSync(recordings, { withFileTypes: true })
    .filter((e) => e.isDirectory() && RING_DUMP_NAME.test(e.name) && e.name !== written)
    .map((e) => ({ name: e.name, mtimeMs: statSync(join(recordings, e.name)).mtimeMs }))
    .sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const old of older.slice(0, Math.max(0, older.length - (keep - 1)))) rmSync(join(recordings, old.name), { recursive: true, force: true });
  return result;
}
