import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './e2e-kit';
import { runMain } from './main-kit';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';

/**
 * `src/main.ts` as a real process, for what it does before serving: `--help` (stdout, exit 0),
 * a bad flag or environment variable (exit 2, the message, then the usage) and a store it must not
 * open (exit 1, the store's own message, the file untouched); a start that fails on `--sandbox` or
 * on a port in use leaves no store file it created, and keeps one that was there.
 */

t.test('help, bad options and a bad store: exit codes and messages', async (t) => {
  const dir = tempDir(t);
  const garbage = join(dir, 'garbage.db');
  writeFileSync(garbage, 'not a database\n');
  const sandbox = join(dir, 'sandboxes');
  // A directory where the store's lock goes; a file where the store's directory goes.
  mkdirSync(join(dir, 'locked.db.lock'));
  writeFileSync(join(dir, 'plain'), 'x');
  // Independent processes: run them side by side to keep the file short.
  // A port in use (held here); an existing store, which a failed start must keep.
  const busy = await listening();
  t.teardown(() => new Promise<void>((done) => busy.close(() => done())));
  const busyPort = String((busy.address() as { port: number }).port);
  const kept = join(dir, 'kept.db');
  SqliteStore.open(kept).close();
  const keptSize = statSync(kept).size;
  const [help, badFlag, badEnv, store, lockDir, fileInPath, sandboxFile, portNew, portKept] = await Promise.all([
    runMain(t, ['--help']),
    runMain(t, ['--port', 'http']),
    runMain(t, [], { PACER_CLUSTER: 'k8s' }),
    runMain(t, ['--port', '0', '--store', garbage, '--sandbox', sandbox]),
    runMain(t, ['--port', '0', '--store', join(dir, 'locked.db'), '--sandbox', sandbox]),
    runMain(t, ['--port', '0', '--store', join(dir, 'plain', 'sub', 'p.db'), '--sandbox', sandbox]),
    runMain(t, ['--port', '0', '--store', join(dir, 'other.db'), '--sandbox', join(dir, 'plain')]),
    runMain(t, ['--port', busyPort, '--store', join(dir, 'new.db'), '--sandbox', sandbox]),
    runMain(t, ['--port', busyPort, '--store', kept, '--sandbox', join(dir, 'sandboxes-kept')]),
  ]);

  t.equal(help.code, 0, '--help exits 0');
  t.match(help.stdout, /^usage: npm start -- \[options\]\n/, 'usage on stdout');
  t.match(help.stdout, /--cluster VALUE/);
  t.equal(help.stderr, '');

  t.equal(badFlag.code, 2, 'a bad flag exits 2');
  t.match(badFlag.stderr, /^pacer: --port http: expected an integer from 0 to 65535\n\nusage:/, 'naming the option, value and expectation, then the usage');

  t.equal(badEnv.code, 2, 'a bad environment variable exits 2');
  t.match(badEnv.stderr, /^pacer: PACER_CLUSTER=k8s: expected one of local, sim, mesos\n/);

  t.equal(store.code, 1, 'a store it must not open exits 1');
  t.match(store.stderr, new RegExp(`^pacer: cannot start: store ${garbage} is not a SQLite database; refusing to open it \\(it was not modified\\)`));
  t.equal(readFileSync(garbage, 'utf8'), 'not a database\n', 'the file is untouched');

  // Both named no file before 2026-12-03 (the system's EISDIR and EEXIST alone).
  t.equal(lockDir.code, 1, 'a lock path that is a directory exits 1');
  t.match(lockDir.stderr, new RegExp(`^pacer: cannot start: cannot read the store lock ${join(dir, 'locked.db.lock')}: EISDIR`), 'naming the lock');
  t.equal(fileInPath.code, 1, 'a file in the store directory\'s path exits 1');
  t.match(fileInPath.stderr, new RegExp(`^pacer: cannot start: cannot create the store's directory ${join(dir, 'plain', 'sub')} \\(--store\\): a file that is not a directory stands in its path\n`), 'naming the directory and the option');
  t.equal(sandboxFile.code, 1, 'a file where the sandboxes go exits 1');
  t.match(sandboxFile.stderr, new RegExp(`^pacer: cannot start: cannot start the local cluster in ${join(dir, 'plain')}: a file that is not a directory stands in its path \\(--sandbox\\)\n`), 'naming the option');
  // Before 2026-12-03 each left a new, empty store file behind.
  t.notOk(existsSync(join(dir, 'other.db')), 'the store it created is gone');

  t.equal(portNew.code, 1, 'a port in use exits 1');
  t.match(portNew.stderr, new RegExp(`^pacer: cannot start: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${busyPort}\n`), 'naming the address');
  t.notOk(existsSync(join(dir, 'new.db')), 'the store it created is gone');
  t.notOk(existsSync(join(dir, 'new.db-wal')), 'and its write-ahead log');
  t.notOk(existsSync(join(dir, 'new.db.lock')), 'and its lock');
  t.equal(portKept.code, 1, 'a port in use exits 1 with a store that was there');
  t.ok(existsSync(kept) && statSync(kept).size >= keptSize, 'that store is kept');
});

/** A TCP server on 127.0.0.1 at a port of the system's choice. */
function listening(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
