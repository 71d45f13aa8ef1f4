import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './e2e-kit';
import { e2eConfig, startPacer } from './pacer-kit';
import { captureLog } from '../harness/log-capture';
import { waitFor } from '../harness/wait';

/*
 * pacer over real HTTP while its store cannot keep a change (the disk trial of 2026-11-30). Before:
 * a change on a full disk stopped pacer in the middle of the request (exit 70: the client's
 * connection dropped, nothing was served until the disk had room and pacer was started again),
 * and a change after the store file was removed was answered 201 and lost at the next start.
 * Now a full disk or another file at the store's path is answered 503 with the reason, reads go
 * on, and changes are taken again once the cause is gone, with nothing accepted before lost; a
 * removed store file is written again from the open store (2026-12-01), so nothing is lost. The full disk is the store's measure of free
 * space faked (`storeFreeBytes`); the removed file is real.
 */

const MIB = 1024 * 1024;
const app = (id: string): unknown => ({ id, cmd: 'sleep 1000', cpus: 0.01, mem: 8, instances: 0 });

t.test('a full disk: changes answered 503 with the reason, reads served, changes taken again once space is freed, nothing lost', async (t) => {
  const dir = tempDir(t);
  let freeBytes = 100 * MIB;
  const config = e2eConfig(dir, { storeMinFreeBytes: 64 * MIB });
  const pacer = await startPacer(t, config, { storeFreeBytes: () => freeBytes });
  t.equal((await pacer.request('POST', '/v2/apps', app('/before'))).status, 201);
  freeBytes = 10 * MIB;
  const refused = await pacer.request('POST', '/v2/apps', app('/refused'));
  t.equal(refused.status, 503, 'a change is refused');
  t.equal(refused.json.message, `pacer cannot store changes now: the file system of the store ${config.storePath} has 10 MiB free, less than --store_min_free 64 MiB; changes are refused until space is freed (reads still work, nothing accepted before is lost)`);
  t.equal((await pacer.request('DELETE', '/v2/apps/before')).status, 503, 'a delete too');
  const read = await pacer.request('GET', '/v2/apps');
  t.equal(read.status, 200, 'reads are served');
  t.same((read.json.apps as { id: string }[]).map((a) => a.id), ['/before'], 'the refused change was not made');
  freeBytes = 64 * MIB;
  t.equal((await pacer.request('POST', '/v2/apps', app('/after'))).status, 201, 'space freed: taken again');
  await pacer.close();
  const again = await startPacer(t, config);
  t.same(((await again.request('GET', '/v2/apps')).json.apps as { id: string }[]).map((a) => a.id).sort(), ['/after', '/before'], 'a restart has every change answered 201, and only those');
});

t.test('the store file removed while pacer runs: written again before the next change (201) and by itself within seconds; a restart has every change', async (t) => {
  const dir = tempDir(t);
  const storeDir = join(dir, 'store');
  const config = e2eConfig(dir, { storeMinFreeBytes: 0, storePath: join(storeDir, 'pacer.db') });
  const captured = captureLog();
  const pacer = await startPacer(t, config, { log: captured.log });
  const path = config.storePath;
  t.equal((await pacer.request('POST', '/v2/apps', app('/before'))).status, 201);
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  t.equal((await pacer.request('POST', '/v2/apps', app('/after-rm'))).status, 201, 'removed: written again before the change, which is taken');
  t.ok(existsSync(path), 'the file is back at its path');
  renameSync(path, join(dir, 'elsewhere.db'));
  await waitFor(() => existsSync(path), 'the moved store file written again by the periodic check');
  t.equal((await pacer.request('POST', '/v2/apps', app('/after-move'))).status, 201);
  rmSync(storeDir, { recursive: true });
  t.equal((await pacer.request('DELETE', '/v2/apps/before')).status, 200, 'its whole directory removed: written again, the delete taken');
  t.equal((await pacer.request('GET', '/v2/apps/after-rm')).status, 200, 'reads are served');
  const said = captured.records().filter((r) => r.component === 'store').map((r) => `${String(r.level)} ${String(r.msg)}`);
  t.equal(said.length, 3, 'the log says each time the file was written again');
  t.match(said[0], new RegExp(`^(warn|40) the store file ${path} was removed while pacer ran; wrote it again from the open store \\(\\d+ bytes\\): nothing accepted or written since is lost$`));
  await pacer.close();
  const again = await startPacer(t, config);
  t.same(((await again.request('GET', '/v2/apps')).json.apps as { id: string }[]).map((a) => a.id).sort(), ['/after-move', '/after-rm'], 'a restart has every change answered 2xx');
});

t.test('another file put at the store\'s path while pacer runs: changes answered 503 (not 201 and lost), reads served', async (t) => {
  const dir = tempDir(t);
  const config = e2eConfig(dir, { storeMinFreeBytes: 0 });
  const pacer = await startPacer(t, config);
  t.equal((await pacer.request('POST', '/v2/apps', app('/before'))).status, 201);
  renameSync(config.storePath, join(dir, 'elsewhere.db'));
  writeFileSync(config.storePath, '');
  const refused = await pacer.request('POST', '/v2/apps', app('/lost'));
  t.equal(refused.status, 503, 'refused');
  t.match(refused.json.message, `the store file ${config.storePath} was replaced by another file while pacer ran`);
  t.equal((await pacer.request('GET', '/v2/apps/before')).status, 200, 'reads are served');
  renameSync(join(dir, 'elsewhere.db'), config.storePath);
  t.equal((await pacer.request('POST', '/v2/apps', app('/after'))).status, 201, 'the same file back: taken again');
});
