import t from 'tap';
import seedrandom from 'seedrandom';
import { appTaskId, instanceIdOfTask, newInstanceId, podTaskId, safeRunSpecId, uuidFrom } from '../../../../src/scheduler/kernel/ids';
import type { Random } from '../../../../src/scheduler/ports/random';

/** The ids' formula written out plainly: what `uuidFrom` and `newInstanceId` must produce. */
function referenceUuid(random: Random): string {
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  const a = hex((random.next() * 0x1_0000_0000) >>> 0);
  const b = (random.next() * 0x1_0000_0000) >>> 0;
  const c = (random.next() * 0x1_0000_0000) >>> 0;
  const d = hex((random.next() * 0x1_0000_0000) >>> 0);
  const b2 = hex(((b & 0xffff_0fff) | 0x4000) >>> 0);
  const c2 = hex(((c & 0x3fff_ffff) | 0x8000_0000) >>> 0);
  return `${a}-${b2.slice(0, 4)}-${b2.slice(4)}-${c2.slice(0, 4)}-${c2.slice(4)}${d}`;
}

const seeded = (seed: string): Random => ({ next: seedrandom(seed) });

t.test('uuidFrom: RFC 4122 version 4, the same as the plain formula for the same draws', async (t) => {
  for (const seed of ['a', 'b', 'pacer']) {
    const ours = seeded(seed);
    const reference = seeded(seed);
    for (let i = 0; i < 200; i++) {
      const id = uuidFrom(ours);
      t.equal(id, referenceUuid(reference));
      t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  }
  const edges: [string, number][] = [['all zero draws', 0], ['all maximal draws', 0.9999999999]];
  for (const [name, draw] of edges) t.equal(uuidFrom({ next: () => draw }), referenceUuid({ next: () => draw }), name);
});

t.test('newInstanceId: <safe run spec id>.instance-<uuid>, for run specs created in any order', async (t) => {
  const ours = seeded('ids');
  const reference = seeded('ids');
  const table = ['/prod/web', '/prod/web', '/a', '/prod/web', '//deep/x/y.z', '/a'];
  for (const runSpecId of table) {
    const id = newInstanceId(runSpecId, ours);
    t.equal(id, `${safeRunSpecId(runSpecId)}.instance-${referenceUuid(reference)}`, runSpecId);
    t.equal(instanceIdOfTask(appTaskId(id, 3)), id);
  }
  t.equal(safeRunSpecId('/prod/web'), 'prod_web');
  t.equal(safeRunSpecId('//deep/x/y.z'), 'deep_x_y.z');
});

t.test('pod task ids: <instance>.<container>.<incarnation> from the first launch (Marathon core/task/Task.scala TaskIdWithIncarnation); every form parses back to its instance', async (t) => {
  const inst = 'prod_db.instance-c5fea1d0-5a7e-4968-89d1-0f77e1fe702a';
  t.equal(podTaskId(inst, 'db', 1), `${inst}.db.1`);
  t.equal(podTaskId(inst, 'db', 2), `${inst}.db.2`);
  const parsed: [string, string][] = [
    [`${inst}.db.1`, inst],
    [`${inst}.db.12`, inst],
    [`${inst}.db`, inst], // as pacer stored a first launch before (and Marathon's EphemeralTaskId)
    [`${inst}._app.1`, inst],
    [`${inst}.with-dash.3`, inst],
  ];
  for (const [taskId, want] of parsed) t.equal(instanceIdOfTask(taskId), want, taskId);
});
