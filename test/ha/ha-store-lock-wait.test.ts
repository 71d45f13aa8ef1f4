import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startHa } from '../../src/ha/start-ha';
import { parseConfig } from '../../src/runtime/config';
import { waitFor } from '../harness/wait';
import { StoreLock } from '../../src/runtime/store-lock';
import { adminSession, scratchPath, SESSION, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * A pacer elected while another live process still holds the store lock next to `--store` (the
 * leader it replaces, paused — `kill -STOP`, a long GC — past its session timeout: its latch is
 * gone, but it still holds this host's sandboxes and will only notice once it runs again) waits
 * for the lock and then leads; it must not exit. Before the fix every standby elected meanwhile
 * exited (`cannot lead: … another pacer (pid N) is using this store`), so the paused leader,
 * resumed, was the only pacer left. The holder here is a `sleep` child standing in for the
 * paused pacer; its death frees the lock, as the paused pacer's step-down releases it.
 */
t.test('an elected pacer waits for a live holder of the store lock, then leads; it does not exit', { skip }, async (t) => {
  const root = await scratchPath(t, await adminSession(t));
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-lock-wait-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
  t.teardown(() => void holder.kill('SIGKILL'));
  const holderPid = holder.pid ?? 0;
  writeFileSync(join(dir, 'pacer.db.lock'), StoreLock.textOf(holderPid));

  const parsed = parseConfig([
    '--zk', `zk://${ZK}${root}`, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION.sessionTimeoutMs),
  ], {}, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  const fatal: string[] = [];
  const lines: string[] = [];
  const running = await startHa(parsed, { onFatal: (error) => void fatal.push(error.message), electionLog: (line) => void lines.push(line) });
  t.teardown(() => running.close());

  await waitFor(() => lines.some((l) => l.includes(`held by pid ${holderPid}`)) || fatal.length > 0, 'the wait for the lock, or a fatal error');
  t.same(fatal, [], 'not fatal: the pacer waits for the lock');
  t.notOk(running.leadership.serving(), 'it does not serve while another process holds the lock');

  holder.kill('SIGKILL');
  await waitFor(() => running.leadership.serving() || fatal.length > 0, 'the pacer to lead once the holder is gone');
  t.same(fatal, [], 'still nothing fatal');
  t.ok(running.leadership.serving(), 'it leads once the lock is free');
  const ping = await fetch(`http://${running.address}/v2/apps`);
  t.equal(ping.status, 200, 'and serves');
});
