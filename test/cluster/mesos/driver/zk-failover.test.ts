import t from 'tap';
import type { Test } from 'tap';
import type { MasterDetector } from '../../../../src/cluster/mesos/master-detector';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import { ZkSession } from '../../../../src/cluster/mesos/zk/zk-session';
import { parseZkUrl } from '../../../../src/cluster/mesos/zk/zk-url';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { masterInfoJson } from '../zk/master-info-json';
import { MemoryZooKeeper } from '../zk/memory-zookeeper';
import { startCorePacer } from './core-fixture';

const WAIT_MS = 60_000;

/** Where the masters register and how a master's registration ends (its ZooKeeper session closing). */
interface Election {
  readonly detector: MasterDetector;
  /** Registers a master as Mesos' contender does; the returned function ends its candidacy. */
  register(master: FakeMaster): Promise<() => void>;
}

function memoryElection(t: Test): Election {
  const zk = new MemoryZooKeeper();
  let sequence = 0;
  const detector = new ZkMasterDetector('zk://zk1:2181/mesos', { openSession: zk.open });
  t.teardown(() => detector.close());
  return {
    detector,
    register: (master) => {
      const path = `/mesos/json.info_${String(++sequence).padStart(10, '0')}`;
      zk.set(path, masterInfoJson('127.0.0.1', '127.0.0.1', Number(master.hostPort.split(':')[1])));
      return Promise.resolve(() => zk.remove(path));
    },
  };
}

async function realElection(t: Test, hostPort: string): Promise<Election> {
  const options = { sessionTimeoutMs: 4_000, connectTimeoutMs: 10_000, requestTimeoutMs: 10_000 };
  const admin = await ZkSession.open(parseZkUrl(`zk://${hostPort}/`), options);
  const group = await admin.create(`/pacer-failover-${process.pid}-`, Buffer.alloc(0), 'persistentSequential');
  const detector = new ZkMasterDetector(`zk://${hostPort}${group}`, options);
  const sessions: ZkSession[] = [];
  t.teardown(async () => {
    detector.close();
    for (const s of sessions) s.close();
    for (const child of await admin.getChildren(group).catch(() => [])) await admin.delete(`${group}/${child}`).catch(() => undefined);
    await admin.delete(group).catch(() => undefined);
    admin.close();
  });
  return {
    detector,
    register: async (master) => {
      const session = await ZkSession.open(parseZkUrl(`zk://${hostPort}/`), options);
      sessions.push(session);
      await session.create(`${group}/json.info_`, Buffer.from(masterInfoJson('127.0.0.1', '127.0.0.1', Number(master.hostPort.split(':')[1]))), 'ephemeralSequential');
      return () => session.close();
    },
  };
}

const zk = process.env.PACER_TEST_ZK;
const ELECTIONS: readonly { name: string; make: (t: Test) => Promise<Election>; skip: string | false }[] = [
  { name: 'an in-memory ZooKeeper', make: (t) => Promise.resolve(memoryElection(t)), skip: false },
  { name: 'a real ZooKeeper', make: (t) => realElection(t, zk ?? ''), skip: zk === undefined || zk === '' ? 'PACER_TEST_ZK is unset' : false },
];

for (const election of ELECTIONS) {
  t.test(`zk:// master failover through ${election.name}: same framework id, reconciled, nothing relaunched, no old offer used`, { skip: election.skip }, async (t) => {
    const a = await FakeMaster.start();
    const b = await FakeMaster.start();
    t.teardown(async () => { await a.close(); await b.close(); });
    const e = await election.make(t);
    const leaveA = await e.register(a);
    await e.register(b);
    const store = new MemoryStore();
    const pacer = startCorePacer(t, a, store, { driver: { detector: e.detector } });
    await waitUntil(() => store.frameworkId, WAIT_MS, 'the subscription to A');
    const frameworkId = a.frameworkId!;
    t.equal(pacer.driver.leader, a.url, 'A leads');
    pacer.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 1, cpus: 0.5, mem: 64 }) });
    a.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'A-O-1')] } });
    const accept = await a.waitForCall('ACCEPT', 1, WAIT_MS);
    const taskId = accept.call.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value ?? '';
    a.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
    await waitUntil(() => pacer.core.instances('/web')[0]?.condition === 'Running' || undefined, WAIT_MS, 'the task to run');
    a.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'A-O-2')] } }); // outstanding when A goes

    leaveA(); // A loses the election; its stream stays open (a partitioned old leader)
    const resubscribe = await b.waitForCall('SUBSCRIBE', 1, WAIT_MS);
    t.same(resubscribe.call.frameworkId, { value: frameworkId }, 'resubscribed to B with the same framework id');
    t.equal(pacer.driver.leader, b.url);
    const reconcile = await b.waitForCall('RECONCILE', 1, WAIT_MS);
    t.same(reconcile.call.reconcile?.tasks?.map((x) => x.taskId.value), [taskId], 'the running task is reconciled');
    b.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { source: 'SOURCE_MASTER', reason: 'REASON_RECONCILIATION', uuid: undefined }) } });
    b.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'B-O-1')] } });
    await b.waitForCall('DECLINE', 1, WAIT_MS);
    t.same(b.callsOf('ACCEPT'), [], 'nothing relaunched on B');
    t.equal(pacer.core.instances('/web').length, 1);
    t.equal(pacer.core.instances('/web')[0]?.tasks[0]?.taskId, taskId, 'the same task');
    t.notOk(b.callsOf('DECLINE').some((c) => (c.call.decline?.offerIds ?? []).some((id) => id.value.startsWith('A-'))), 'no offer of A reaches B');
    t.equal(a.callsOf('ACCEPT').length, 1, 'A saw only the first launch');
  });
}
