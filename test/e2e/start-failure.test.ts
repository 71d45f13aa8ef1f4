import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import t, { type Test } from 'tap';
import { startLocal } from '../../src/runtime/start-local';
import { freePort, tempDir, within } from './e2e-kit';
import { e2eConfig, startPacer } from './pacer-kit';

/**
 * `startLocal` failing after the store was opened (the port is taken, the sandbox cannot be
 * made) must release what it opened: the store is closed (a closed WAL database leaves no -wal /
 * -shm file) and the next start on the same files works.
 */

/** The store is closed: SQLite removes a WAL database's side files when its last connection closes. */
function storeClosed(storePath: string): boolean {
  return !existsSync(`${storePath}-wal`) && !existsSync(`${storePath}-shm`);
}

async function occupy(t: Test, port: number): Promise<void> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

t.test('the API port is taken: startLocal rejects, closes the store, and a later start works', async (t) => {
  const dir = tempDir(t);
  const port = await freePort();
  await occupy(t, port);
  const config = e2eConfig(dir, { port });
  await t.rejects(within(startLocal(config), 'startLocal'), { code: 'EADDRINUSE' }, 'rejects with the listen error');
  t.ok(storeClosed(config.storePath), 'the store was closed');
  const pacer = await startPacer(t, { ...config, port: 0 });
  t.equal((await pacer.request('GET', '/ping')).text, 'pong', 'the same store and sandbox start on another port');
  await pacer.close();
  t.ok(storeClosed(config.storePath), 'close() closes the store');
});

// A sandbox that cannot be created (the path is a regular file) fails the start with a message
// naming it, and everything opened so far (store, lock, timers) is closed again.
t.test('the sandbox cannot be created: startLocal rejects naming the path, and closes the store', async (t) => {
  const dir = tempDir(t);
  const config = e2eConfig(dir);
  writeFileSync(config.sandboxRoot, 'a file where the sandbox directory should be');
  const err = await within(startLocal(config).then(() => undefined, (e: unknown) => e), 'startLocal');
  t.type(err, Error, 'rejects');
  t.match((err as Error).message, config.sandboxRoot, 'the message names the sandbox path');
  t.ok(storeClosed(config.storePath), 'the store was closed');
});

// Node's own recursive mkdir never returns for a path under /proc (procfs answers ENOENT for a
// directory it cannot make; src/runtime/make-dirs.ts): `--record /proc/…` spun at 100 % CPU,
// deaf to SIGTERM. It now fails the start like any other path that cannot be made.
t.test('a recording directory under /proc cannot be made: startLocal rejects at once, naming it', { skip: existsSync('/proc/self') ? false : 'no /proc here' }, async (t) => {
  const dir = tempDir(t);
  const config = { ...e2eConfig(dir), recordDir: '/proc/pacer-cannot-be-here/rec' };
  const err = await within(startLocal(config).then(() => undefined, (e: unknown) => e), 'startLocal');
  t.type(err, Error, 'rejects');
  t.match((err as Error).message, '/proc/pacer-cannot-be-here', 'the message names the path');
  t.ok(storeClosed(config.storePath), 'the store was closed');
});

// One pacer per store: a second one on the same store is refused while the first runs (a lock file
// next to the store); two schedulers would fight over the same processes and host ports.
t.test('a second pacer on the same store while the first runs is refused', async (t) => {
  const dir = tempDir(t);
  const config = e2eConfig(dir);
  const first = await startPacer(t, config);
  const second = await within(startLocal(config).then((running) => running, (e: unknown) => e as Error), 'the second startLocal');
  if (!(second instanceof Error)) t.teardown(() => second.close());
  t.type(second, Error, 'the second start is refused');
  t.equal((await first.request('GET', '/ping')).text, 'pong', 'the first keeps serving');
  await first.close();
});
