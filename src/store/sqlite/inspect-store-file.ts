import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { PACER_APPLICATION_ID, STORE_FORMAT_VERSION, STORE_TABLES } from './store-format';
import { OLDEST_MIGRATABLE_VERSION } from './store-migrations';

/**
 * What opening may do with a file: initialise it (new or empty), open it as it is, or migrate it
 * from an older format version (`{ migrateFrom }`, store-migrations.ts) and then open it.
 */
export type StoreFileState = 'new' | 'current' | { readonly migrateFrom: number };

/** What an existing SQLite file says about itself. */
interface FileMarkers {
  readonly applicationId: number;
  readonly formatVersion: number;
  readonly schemaObjects: number;
  readonly tables: ReadonlySet<string>;
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1');
const NOT_MODIFIED = 'refusing to open it (it was not modified)';

/**
 * Decide whether the store file at `path` may be opened for writing, before anything writes to it.
 *
 * Every check runs on a read-only connection (or plain reads of the header), so a refused file is
 * never modified: not a SQLite database, failing `PRAGMA quick_check`, another program's database,
 * or a newer format version all throw an Error naming the path and what to do, as does an empty
 * file beside a write-ahead log that is not empty. A missing file, an empty file and an empty
 * SQLite database are `new` (to be initialised); our format at our
 * version is `current`.
 */
export function inspectStoreFile(path: string): StoreFileState {
  if (!existsSync(path)) return 'new';
  checkHeader(path);
  const created = WAL_SIDE_FILES.map((suffix) => `${path}${suffix}`).filter((f) => !existsSync(f));
  try {
    return decide(path, readMarkers(path));
  } catch (err) {
    removeFiles(created);
    throw err;
  }
}

function decide(path: string, markers: FileMarkers): StoreFileState {
  if (markers.applicationId === PACER_APPLICATION_ID) {
    const state = checkVersion(path, markers.formatVersion);
    // Every format version has had these tables: one missing stopped start-up later with "no such
    // table", naming neither the file nor what to do.
    // A file of format 7 or later has `task_failures` too (an older one gets it from the migration).
    const tables = markers.formatVersion >= 7 ? [...STORE_TABLES, 'task_failures'] : STORE_TABLES;
    const missing = tables.filter((table) => !markers.tables.has(table));
    if (missing.length > 0) throw corrupt(path, `it has no table ${missing.join(', ')}`);
    return state;
  }
  if (markers.applicationId === 0 && markers.formatVersion === 0 && markers.schemaObjects === 0) return 'new';
  throw new Error(
    `store ${path} is a SQLite database but not a pacer store (application_id ${markers.applicationId}, ` +
      `user_version ${markers.formatVersion}); ${NOT_MODIFIED}. Point the store at another path.`,
  );
}

/**
 * Even a read-only connection creates these beside a WAL-mode database. When it did (they were not
 * there: no other connection had the file open), a refusal removes them again, so a refused file's
 * directory is left as it was found.
 */
const WAL_SIDE_FILES = ['-wal', '-shm'];

function removeFiles(files: readonly string[]): void {
  for (const f of files) rmSync(f, { force: true });
}

/** The first 16 bytes of a SQLite file are its magic string; an empty file is a new database. */
function checkHeader(path: string): void {
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`store ${path} is not a regular file; ${NOT_MODIFIED}. Point the store at a file path.`);
  if (stat.size === 0) {
    checkNoOrphanLog(path);
    return;
  }
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < head.length || !head.equals(SQLITE_MAGIC)) {
    throw new Error(
      `store ${path} is not a SQLite database; ${NOT_MODIFIED}. ` +
        'Point the store at another path, or move the file away if it is not needed.',
    );
  }
}

/**
 * An empty store file is a new store — unless a write-ahead log that is not empty lies beside it:
 * then the file was cut short (truncated, or copied without its log) and its records are in the
 * log. Initialising it would start pacer with nothing and overwrite that log.
 */
function checkNoOrphanLog(path: string): void {
  const wal = `${path}-wal`;
  const size = statSync(wal, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return;
  throw new Error(
    `store ${path} is empty but its write-ahead log ${wal} holds ${size} bytes (the file was cut short, or copied without its log); ${NOT_MODIFIED}. ` +
      'Restore both from a backup, or move both away to start with an empty store (all state in them is lost).',
  );
}

function readMarkers(path: string): FileMarkers {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const problems = quickCheck(db);
    if (problems.length > 0) throw corrupt(path, problems.join('; '));
    return {
      applicationId: db.pragma('application_id', { simple: true }) as number,
      formatVersion: db.pragma('user_version', { simple: true }) as number,
      schemaObjects: (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n,
      tables: new Set((db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name)),
    };
  } catch (err) {
    if (err instanceof Database.SqliteError) throw corrupt(path, `${err.code}: ${err.message}`);
    throw err;
  } finally {
    db?.close();
  }
}

/**
 * `PRAGMA quick_check` answers one row `ok`, or rows describing the problems found (up to 10),
 * some of them multi-line under a `*** in database main ***` heading: flattened to one line each.
 */
function quickCheck(db: Database.Database): string[] {
  const rows = db.pragma('quick_check(10)') as { quick_check: string }[];
  return rows
    .flatMap((r) => r.quick_check.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'ok' && !line.startsWith('***'));
}

function checkVersion(path: string, formatVersion: number): StoreFileState {
  if (formatVersion > STORE_FORMAT_VERSION) {
    throw new Error(
      `store ${path} has format version ${formatVersion}, this pacer understands up to ${STORE_FORMAT_VERSION}; ${NOT_MODIFIED}`,
    );
  }
  if (formatVersion < OLDEST_MIGRATABLE_VERSION) {
    // Version 1 is the first format: a lower version with our marker was never written by pacer.
    throw new Error(`store ${path} has format version ${formatVersion}, which no pacer wrote; ${NOT_MODIFIED}`);
  }
  return formatVersion < STORE_FORMAT_VERSION ? { migrateFrom: formatVersion } : 'current';
}

function corrupt(path: string, detail: string): Error {
  return new Error(
    `store ${path} is corrupt or unreadable (${detail}); ${NOT_MODIFIED}. ` +
      'Restore it from a backup, or move it away to start with an empty store (all state in it is lost).',
  );
}
