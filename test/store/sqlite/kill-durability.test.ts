import { spawn } from 'node:child_process';
import t, { type Test } from 'tap';
import type { StoreSynchronous } from '../../../src/store/sqlite/sqlite-store';
import { nodeArgsFor } from '../../harness/node-entry';
import { REPO_ROOT } from '../../harness/repo-path';
import { PATIENCE_MS } from '../../harness/wait';
import { openStore, tempStorePath } from './store-fixture';

const WRITER = 'test/store/sqlite/fixtures/kill-writer.ts';
/** Writes the child attempts: far more than it gets through before the kill. */
const ATTEMPTS = 1_000_000;
/** Acks to wait for before the kill. */
const ACKS_BEFORE_KILL = 100;
/** Bound on the child's start and its first acks (a generous one: starting Node is slow on a loaded machine). */
const DEADLINE_MS = PATIENCE_MS;

interface KillRun {
  /** Highest `ack <i>` the child printed before it died (-1: none). */
  readonly lastAck: number;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Run the writer child on `path`, SIGKILL it once it has acknowledged {@link ACKS_BEFORE_KILL}
 * writes, and read every ack it managed to print. Fails the run (kills the child) after
 * {@link DEADLINE_MS}.
 */
function writeThenKill(path: string, synchronous: StoreSynchronous): Promise<KillRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgsFor(WRITER), path, String(ATTEMPTS), synchronous], {
      cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let lastAck = -1;
    const deadline = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m !== null) lastAck = Number(m[1]);
      }
      if (lastAck >= ACKS_BEFORE_KILL) child.kill('SIGKILL');
    });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      if (lastAck < ACKS_BEFORE_KILL) fail(new Error(`writer got to ack ${lastAck} (exit ${code}, ${signal}): ${err}`));
      else done({ lastAck, signal });
    });
  });
}

async function checkDurable(t: Test, synchronous: StoreSynchronous): Promise<void> {
  const path = tempStorePath(t);
  const run = await writeThenKill(path, synchronous);
  t.equal(run.signal, 'SIGKILL', 'the writer was killed, not closed');
  t.ok(run.lastAck < ATTEMPTS - 1, `killed mid-stream (after ack ${run.lastAck})`);
  const state = openStore(t, path, { synchronous }).load();
  const ids = new Set(state.instances.map((i) => i.instanceId));
  const missing: number[] = [];
  for (let i = 0; i <= run.lastAck; i++) if (!ids.has(`app.instance-${String(i).padStart(8, '0')}`)) missing.push(i);
  t.same(missing, [], `every one of the ${run.lastAck + 1} acknowledged saveInstances is in the reopened store`);
  const fw = Number(/^fw-(\d+)$/.exec(state.frameworkId ?? '')?.[1] ?? -1);
  t.ok(fw >= run.lastAck, `the framework id is at least the last acknowledged one (fw-${fw} ≥ fw-${run.lastAck})`);
  t.ok(state.instances.length <= fw + 1 + 1, 'nothing beyond what the writer attempted');
}

t.test('kill -9 after acknowledged writes loses none of them (synchronous NORMAL, WAL)', async (t) => {
  await checkDurable(t, 'NORMAL');
});

t.test('kill -9 after acknowledged writes loses none of them (synchronous FULL)', async (t) => {
  await checkDurable(t, 'FULL');
});
