import t from 'tap';
import type { SimAgentSpec } from '../../sim/cluster/sim-agent-spec';
import { exitOf, KILLED_UNCOVERED } from '../e2e/main-kit';
import { startRealTimeMaster, roomyAgent } from '../cluster/mesos/fake-master/real-time-master';
import { PATIENCE_MS, waitFor } from '../harness/wait';
import { agreedLeader, ask, spawnPacer, type PacerProcess } from './ha-process-kit';
import { adminSession, scratchPath, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * Failover of three pacer processes (`npm start -- --cluster mesos --master … --zk …`) on a fake
 * Mesos master in this test process on 127.0.0.1 (test/cluster/mesos/fake-master/real-time-master.ts:
 * the simulator's agents and executors behind the real wire; tasks keep running while no framework
 * is subscribed) and PACER_TEST_ZK. The leader is killed with SIGKILL in the middle of a
 * deployment (two of three instances running, the third waiting for room); the next leader
 * resubscribes with the same framework id and the same FrameworkInfo, reconciles, relaunches
 * nothing, and finishes the deployment once an agent with room joins.
 */

/** An agent with room for two of the app's instances (1 cpu each). */
const SMALL: SimAgentSpec = { ...roomyAgent('agent-1'), resources: { ...roomyAgent('agent-1').resources, cpus: 2 } };

interface AppView {
  readonly tasks: readonly { readonly id: string; readonly state: string }[];
}

async function appOf(p: PacerProcess, id: string): Promise<AppView | undefined> {
  const answer = await ask(p, `/v2/apps${id}?embed=apps.tasks`).catch(() => undefined);
  return answer?.status === 200 ? (JSON.parse(answer.body) as { app: AppView }).app : undefined;
}

async function deploymentIds(p: PacerProcess): Promise<string[] | undefined> {
  const answer = await ask(p, '/v2/deployments').catch(() => undefined);
  return answer?.status === 200 ? (JSON.parse(answer.body) as { id: string }[]).map((d) => d.id) : undefined;
}

t.test('three pacer processes on Mesos: the leader killed -9 mid-deployment, the next resubscribes as the same framework, reconciles, relaunches nothing, finishes the deployment', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const rt = await startRealTimeMaster([SMALL]);
  t.teardown(() => rt.close());
  const fake = rt.master.fake;
  const args = [
    '--cluster', 'mesos', '--master', rt.url, '--zk', `zk://${ZK}${root}`, '--zk_session_timeout', '4000',
    '--framework_name', 'pacer-ha-e2e', '--mesos_user', 'nobody', '--failover_timeout', '3600',
  ];
  // Each ends with SIGKILL (the test's or the teardown's): it writes no coverage, so it collects none.
  const pacers = [await spawnPacer(t, args, KILLED_UNCOVERED), await spawnPacer(t, args, KILLED_UNCOVERED), await spawnPacer(t, args, KILLED_UNCOVERED)];
  const first = await agreedLeader(pacers, 'one leader named by all three');
  const firstStream = await waitFor(() => fake.streamId, 'the leader\'s subscription');
  const frameworkId = fake.frameworkId as string;
  t.equal(fake.callsOf('SUBSCRIBE').length, 1, 'only the leader subscribed');
  t.match(fake.callsOf('SUBSCRIBE')[0]?.call.subscribe?.frameworkInfo, { name: 'pacer-ha-e2e', user: 'nobody', failoverTimeout: 3600 }, 'with the framework flags');

  const standby = pacers.find((p) => p !== first) as PacerProcess;
  const created = await ask(standby, '/v2/apps', { method: 'POST', body: { id: '/ha/mesos', cmd: 'sleep 3600', cpus: 1, mem: 32, instances: 3 } });
  t.equal(created.status, 201, 'a standby forwards the POST; the leader accepts it');
  const running = await waitFor(async () => {
    const view = await appOf(first, '/ha/mesos');
    return view !== undefined && view.tasks.length === 2 && view.tasks.every((x) => x.state === 'TASK_RUNNING') && view;
  }, 'two tasks running, the third waiting for room', 2 * PATIENCE_MS, 100);
  const taskIds = running.tasks.map((x) => x.id).sort();
  const deployments = await deploymentIds(first);
  t.equal(deployments?.length, 1, 'the deployment is in progress');
  const launched = (): string[] => fake.callsOf('ACCEPT').flatMap((c) => (c.call.accept?.operations ?? []).flatMap((op) => op.launch?.taskInfos?.map((ti) => ti.taskId.value) ?? []));
  t.same(launched().sort(), taskIds, 'two launches so far');

  first.main.child.kill('SIGKILL');
  await exitOf(first.main, 'the killed leader');
  const live = pacers.filter((p) => p !== first);
  const second = await agreedLeader(live, 'a new leader named by both live pacers');
  const secondStream = await waitFor(() => fake.streamId !== firstStream && fake.streamId, 'the new leader\'s subscription', 2 * PATIENCE_MS);
  const resubscribe = fake.callsOf('SUBSCRIBE').at(-1)?.call;
  t.equal(fake.callsOf('SUBSCRIBE').length, 2, 'the new leader subscribed once');
  t.equal(resubscribe?.frameworkId?.value, frameworkId, 'with the same framework id (from the ZooKeeper store)');
  t.match(resubscribe?.subscribe?.frameworkInfo, { id: { value: frameworkId }, name: 'pacer-ha-e2e', user: 'nobody', failoverTimeout: 3600 }, 'and the same FrameworkInfo');
  const reconciled = await waitFor(() => fake.calls.find((c) => c.call.type === 'RECONCILE' && c.streamId === secondStream && (c.call.reconcile?.tasks?.length ?? 0) > 0),
    'the new leader to reconcile its tasks');
  t.same(reconciled.call.reconcile?.tasks?.map((x) => x.taskId.value).sort(), taskIds, 'it reconciles the two running tasks');
  t.same(await deploymentIds(second), deployments, 'the deployment is not lost: the new leader has it');
  t.same((await appOf(second, '/ha/mesos'))?.tasks.map((x) => x.id).sort(), taskIds, 'the same tasks: none relaunched');
  t.same(launched().sort(), taskIds, 'no launch since the kill');

  rt.master.cluster.addAgent({ ...roomyAgent('agent-2') });
  await waitFor(async () => (await deploymentIds(second))?.length === 0, 'the new leader to finish the deployment on the new agent', 2 * PATIENCE_MS, 100);
  const done = await appOf(second, '/ha/mesos');
  t.equal(done?.tasks.length, 3, 'three tasks');
  t.ok(taskIds.every((id) => done?.tasks.some((x) => x.id === id)), 'the first two among them');
  const all = launched();
  t.equal(all.length, 3, 'exactly three launches in all: the third instance only');
  t.equal(new Set(all).size, 3, 'none launched twice');
  t.same(fake.callsOf('ACCEPT').filter((c) => c.streamId !== firstStream && c.streamId !== secondStream), [], 'only the two leaders\' streams ever accepted');
  t.same(rt.master.problems, [], 'the fake master understood every call');
});
