import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { RunningMesosPacer } from '../../../../src/runtime/start-mesos';
import { startRealTimeMaster, roomyAgent, type RealTimeMaster } from '../fake-master/real-time-master';
import { waitUntil } from '../fake-master/wait-until';
import { call, pacerAt, WAIT_MS } from './mesos-pacer-fixture';

/**
 * Issue 15, resident apps and pods on Mesos, end to end: a whole pacer (`startMesos`, SQLite store)
 * over the wire against the fake master whose master model (src/master) keeps reservations and
 * persistent volumes and offers them back with their labels (fake-master/real-time-master.ts).
 */

const ROLE = 'db';

async function setUp(t: Test): Promise<{ rt: RealTimeMaster; dir: string }> {
  const rt = await startRealTimeMaster([roomyAgent()], { defaultRole: ROLE });
  t.teardown(() => rt.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-resident-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { rt, dir };
}

/** The operations the master applied, in order (`RESERVE <id>`, `LAUNCH`, …). */
function ops(rt: RealTimeMaster): readonly string[] {
  return rt.master.operationLog;
}

/** The dynamic reservations the master model holds on the agent (their ids). */
function reservations(rt: RealTimeMaster): string[] {
  return rt.master.cluster.agentCapacity('agent-1').flatMap((p) => (p.reservationId === undefined ? [] : [p.reservationId]));
}

/** What the n-th LAUNCH's task (1-based) was given over the wire: its persistent volumes and the reservation ids on its resources. */
function nthLaunch(rt: RealTimeMaster, nth: number): { volumes: string[]; reservationIds: string[] } {
  const launches = rt.master.fake.callsOf('ACCEPT').flatMap((c) => (c.call.accept?.operations ?? []).filter((op) => op.type === 'LAUNCH'));
  const resources = launches[nth - 1]?.launch?.taskInfos?.[0]?.resources ?? [];
  const labels = resources.map((r) => r.reservation?.labels?.labels?.find((l) => l.key === 'marathon_task_id')?.value ?? '-');
  return { volumes: resources.flatMap((r) => (r.disk?.persistence === undefined ? [] : [`${r.disk.persistence.id} at ${r.disk.volume?.containerPath ?? ''}`])), reservationIds: [...new Set(labels)] };
}

function tasksOf(pacer: RunningMesosPacer, id: string): { id: string; host: string; state: string }[] {
  return pacer.scheduler.instances(id).flatMap((i) => i.tasks.map((task) => ({ id: task.taskId, host: i.agent?.hostname ?? '', state: task.state ?? '' })));
}

function running(pacer: RunningMesosPacer, id: string): boolean {
  const instances = pacer.scheduler.instances(id);
  return instances.length === 1 && instances[0].condition === 'Running';
}

const RESIDENT_APP = {
  id: '/db', cmd: 'sleep 1000', cpus: 0.1, mem: 32, disk: 0, instances: 1,
  container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 100 } }] },
  upgradeStrategy: { minimumHealthCapacity: 0, maximumOverCapacity: 0 },
};

t.test('a resident app: RESERVE+CREATE+LAUNCH, a killed task relaunches on its reservation, delete releases it — across a restart of pacer', async (t) => {
  const { rt, dir } = await setUp(t);
  let pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  t.equal((await call(pacer, 'POST', '/v2/apps', RESIDENT_APP)).status, 201);
  await waitUntil(() => running(pacer, '/db'), WAIT_MS, 'the resident instance to run');
  const instanceId = pacer.scheduler.instances('/db')[0].instanceId;
  t.strictSame(ops(rt).slice(0, 3), [`RESERVE ${instanceId}`, `CREATE ${instanceId}`, 'LAUNCH'], 'one ACCEPT: RESERVE, CREATE, then LAUNCH on the reservation');
  t.strictSame(reservations(rt), [instanceId], 'the master holds the reservation');
  t.strictSame(nthLaunch(rt, 1), { volumes: [`${instanceId}#vol0 at data`], reservationIds: [instanceId] }, 'the task runs on its reservation only, with its volume');
  const [first] = tasksOf(pacer, '/db');

  // Kill the task (no scaling): it relaunches on the same reservation and volume.
  t.equal((await call(pacer, 'DELETE', `/v2/apps/db/tasks/${encodeURIComponent(first.id)}`)).status, 200);
  await waitUntil(() => tasksOf(pacer, '/db')[0]?.id !== first.id && running(pacer, '/db'), WAIT_MS, 'the relaunch');
  t.equal(pacer.scheduler.instances('/db')[0].instanceId, instanceId, 'the same instance');
  t.strictSame(ops(rt).filter((op) => op.startsWith('RESERVE') || op.startsWith('CREATE')).length, 2, 'no second RESERVE or CREATE: the relaunch used the reservation read back from the offer');
  t.strictSame(ops(rt).filter((op) => op === 'LAUNCH').length, 2, 'two launches');
  t.strictSame(reservations(rt), [instanceId], 'still the one reservation');
  t.strictSame(nthLaunch(rt, 2), { volumes: [`${instanceId}#vol0 at data`], reservationIds: [instanceId] }, 'the relaunch takes the reservation and volume read back from the offer (labels, persistence id)');

  // Restart pacer, then delete the app: the reservation is released after the restart.
  await pacer.close();
  pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  await waitUntil(() => running(pacer, '/db'), WAIT_MS, 'the instance recovered as running');
  t.equal((await call(pacer, 'DELETE', '/v2/apps/db')).status, 200);
  await waitUntil(() => reservations(rt).length === 0, WAIT_MS, 'the reservation to be released');
  t.strictSame(ops(rt).slice(-2), [`DESTROY ${instanceId}`, `UNRESERVE ${instanceId}`], 'DESTROY, then UNRESERVE');
  await waitUntil(() => pacer.scheduler.runSpec('/db') === undefined, WAIT_MS, 'the app to be gone');
  t.same(rt.master.problems.filter((p) => !/answered 40[03]/.test(p)), [], 'the fake master understood every operation');
});

t.test('scale-down retires a resident instance; a restart before its reservation is offered still releases it', async (t) => {
  const { rt, dir } = await setUp(t);
  let pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  t.equal((await call(pacer, 'POST', '/v2/apps', { ...RESIDENT_APP, instances: 2 })).status, 201);
  await waitUntil(() => pacer.scheduler.instances('/db').filter((i) => i.condition === 'Running').length === 2, WAIT_MS, 'two resident instances to run');
  t.equal(reservations(rt).length, 2, 'two reservations');

  // No offer reaches pacer from now on: the retired instance cannot be released before the restart.
  rt.holdOffers = true;
  t.equal((await call(pacer, 'PUT', '/v2/apps/db', { ...RESIDENT_APP, instances: 1 })).status, 200);
  await waitUntil(() => pacer.scheduler.instances('/db').some((i) => i.goal !== 'Running' && i.condition === 'Killed'), WAIT_MS, 'one instance to be killed and retired');
  const retired = pacer.scheduler.instances('/db').find((i) => i.goal !== 'Running')!.instanceId;
  t.equal(reservations(rt).length, 2, 'its reservation is still held');
  await pacer.close();

  // Offers flow again before the new pacer subscribes (the old one is gone, so none reaches it):
  // lifted only after the restart, an offer made between the subscription (which rescinds the
  // held ones) and this line was dropped and stayed outstanding for good (1 in 3 runs under load).
  rt.holdOffers = false;
  pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  await waitUntil(() => !reservations(rt).includes(retired), WAIT_MS, 'the retired reservation to be released after the restart');
  t.strictSame(ops(rt).slice(-2), [`DESTROY ${retired}`, `UNRESERVE ${retired}`], 'DESTROY, then UNRESERVE of the retired instance');
  await waitUntil(() => pacer.scheduler.instances('/db').length === 1, WAIT_MS, 'the retired instance to be forgotten');
  t.equal(reservations(rt).length, 1, 'the remaining instance keeps its reservation');
  t.ok(running(pacer, '/db'), 'the remaining instance runs');
});

t.test('a resident pod: RESERVE+CREATE+LAUNCH_GROUP with the volume on the executor; a relaunch on the same reservation; delete releases it', async (t) => {
  const { rt, dir } = await setUp(t);
  const pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  const pod = {
    id: '/pdb',
    scaling: { kind: 'fixed', instances: 1 },
    volumes: [{ name: 'data', persistent: { size: 50 } }],
    containers: [{ name: 'main', exec: { command: { shell: 'sleep 1000' } }, resources: { cpus: 0.1, mem: 32 }, volumeMounts: [{ name: 'data', mountPath: 'var/data' }] }],
  };
  t.equal((await call(pacer, 'POST', '/v2/pods', pod)).status, 201);
  await waitUntil(() => running(pacer, '/pdb'), WAIT_MS, 'the resident pod instance to run');
  const instanceId = pacer.scheduler.instances('/pdb')[0].instanceId;
  t.strictSame(ops(rt).slice(0, 3), [`RESERVE ${instanceId}`, `CREATE ${instanceId}`, 'LAUNCH_GROUP'], 'one ACCEPT: RESERVE, CREATE, LAUNCH_GROUP');
  const group = (n: number) => rt.master.fake.callsOf('ACCEPT').flatMap((c) => (c.call.accept?.operations ?? []).filter((op) => op.type === 'LAUNCH_GROUP'))[n - 1]?.launchGroup;
  const volumesOf = (n: number): string[] => (group(n)?.executor.resources ?? []).flatMap((r) => (r.disk?.persistence === undefined ? [] : [`${r.disk.persistence.id} at ${r.disk.volume?.containerPath ?? ''}`]));
  t.strictSame(volumesOf(1), [`${instanceId}#vol0 at data`], 'the executor holds the volume, at the volume\'s name');
  t.strictSame(group(1)?.taskGroup.tasks?.[0]?.container?.volumes, [{ containerPath: 'var/data', mode: 'RW', source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'data' } } }], 'the container mounts it from the executor sandbox');

  const taskId = pacer.scheduler.instances('/pdb')[0].tasks[0].taskId;
  t.equal((await call(pacer, 'DELETE', `/v2/pods/pdb::instances/${encodeURIComponent(instanceId)}`)).status, 200);
  await waitUntil(() => running(pacer, '/pdb') && pacer.scheduler.instances('/pdb')[0].tasks[0].taskId !== taskId, WAIT_MS, 'the pod instance to relaunch');
  t.equal(pacer.scheduler.instances('/pdb')[0].instanceId, instanceId, 'the same instance');
  t.strictSame(volumesOf(2), [`${instanceId}#vol0 at data`], 'the relaunch\'s executor takes the same volume');
  t.equal(ops(rt).filter((op) => op.startsWith('RESERVE')).length, 1, 'no second RESERVE');

  t.equal((await call(pacer, 'DELETE', '/v2/pods/pdb')).status, 202);
  await waitUntil(() => reservations(rt).length === 0, WAIT_MS, 'the reservation to be released');
  t.strictSame(ops(rt).slice(-2), [`DESTROY ${instanceId}`, `UNRESERVE ${instanceId}`]);
  t.same(rt.master.problems.filter((p) => !/answered 40[03]/.test(p)), [], 'the fake master understood every operation');
});

t.test('a first launch whose ACCEPT the master refused does not wait forever for a reservation that was never made', async (t) => {
  const rt = await startRealTimeMaster([roomyAgent('agent-1'), roomyAgent('agent-2')], { defaultRole: ROLE });
  t.teardown(() => rt.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-resident-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  rt.master.fake.acceptAnswers.push({ status: 400, body: 'scripted refusal of the first ACCEPT' });
  const pacer = await pacerAt(t, rt, dir, { defaultRole: ROLE });
  t.equal((await call(pacer, 'POST', '/v2/apps', RESIDENT_APP)).status, 201);
  await waitUntil(() => running(pacer, '/db'), WAIT_MS, 'the resident instance to run after all');
  const accepts = rt.master.fake.callsOf('ACCEPT');
  t.equal(accepts[0]?.status, 400, 'the first ACCEPT (RESERVE, CREATE, LAUNCH) was refused');
  const instanceId = pacer.scheduler.instances('/db')[0].instanceId;
  t.strictSame(ops(rt).slice(0, 3), [`RESERVE ${instanceId}`, `CREATE ${instanceId}`, 'LAUNCH'], 'a fresh RESERVE, CREATE and LAUNCH were accepted');
  const held = [...rt.master.cluster.agentCapacity('agent-1'), ...rt.master.cluster.agentCapacity('agent-2')].flatMap((p) => (p.reservationId === undefined ? [] : [p.reservationId]));
  t.strictSame(held, [instanceId], 'one reservation exists, the instance\'s');
  t.equal(pacer.scheduler.instances('/db')[0].reservation?.unconfirmed, undefined, 'its reservation is confirmed');
});
