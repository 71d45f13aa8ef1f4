import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import type { LeaderDuties } from '../../src/ha/leadership';
import { startHa } from '../../src/ha/start-ha';
import { parseConfig } from '../../src/runtime/config';
import type { Scheduler } from '../../src/scheduler/index';
import { sleep, waitFor } from '../harness/wait';
import { call } from './ha-pacer-kit';
import { adminSession, scratchPath, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * The livelock of a leader whose duties take longer to start than its lease (a large state in
 * ZooKeeper: decoding it and the core's recovery block the event loop for seconds). Before the
 * fix the lease lapsed when the start ended, the duties were stopped, the next answer on the same
 * session elected it again, and the duties started again from the store — blocking again, for
 * ever (one restart took 471 s to serve). Its session never expired: a stall shorter than the
 * session timeout cannot have let another pacer lead, so the duties are kept and it serves as soon
 * as ZooKeeper answers again.
 */

/** 6 s rather than the other tests' 4: more time for the probe after the block (see BLOCK_MS). */
const SESSION_MS = 6_000;
/**
 * Past the lease (2/3 of the session timeout) by construction: the silence the lease measures
 * began before the start. Leaves 0.18 of the timeout (over 1 s) before the teardown bound (0.9)
 * for the answer that began the term, and the probe after the block, to come back.
 */
const BLOCK_MS = SESSION_MS * 0.72;

t.test('duties whose every start blocks the event loop past the lease, not the session, start once and serve', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-lease-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const parsed = parseConfig([
    '--zk', `zk://${ZK}${root}`, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION_MS),
  ], {}, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  let starts = 0;
  let stops = 0;
  const lines: string[] = [];
  const startDuties = (): LeaderDuties => {
    starts++;
    const until = performance.now() + BLOCK_MS;
    while (performance.now() < until) { /* a large state being loaded */ }
    // Only what the event stream of a term asks of the core.
    const scheduler = { subscribe: () => () => undefined } as unknown as Scheduler;
    return { scheduler, submit: () => ({ ok: true }), frameworkId: () => undefined, stop: () => void stops++ };
  };
  const running = await startHa(parsed, {
    startDuties, electionLog: (line) => void lines.push(line), rejoinDelayMs: 200, onFatal: (error) => t.fail(`fatal: ${error.message}`),
  });
  t.teardown(() => running.close());

  const outcome = await waitFor(() => (starts > 1 ? 'started again' : running.leadership.serving() && 'serving'), 'the leader to serve, or its duties to start again');
  t.equal(outcome, 'serving', `it serves with the duties of its first start (log: ${lines.join(' | ')})`);
  t.ok(lines.some((l) => /^no answer from ZooKeeper for \d+ ms: not serving requests until it answers again/.test(l)), 'the lapse was seen, and said');
  const leader = await call(`http://${running.address}/v2/leader`);
  t.equal(leader.status, 200, 'a request is served');
  t.same(JSON.parse(leader.text), { leader: running.address });
  await sleep(SESSION_MS / 2); // three probe periods more: none restarts the term
  t.equal(starts, 1, 'the duties started once');
  t.equal(stops, 0, 'and were never stopped');
  t.equal(running.leadership.serving(), true, 'it still serves');
});
