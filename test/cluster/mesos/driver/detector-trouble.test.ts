import t from 'tap';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import { FakeMaster } from '../fake-master/fake-master';
import { waitUntil } from '../fake-master/wait-until';
import { masterInfoJson } from '../zk/master-info-json';
import { MemoryZooKeeper } from '../zk/memory-zookeeper';
import { makeDriver } from './driver-fixture';

const WAIT_MS = 60_000;

t.test('ZooKeeper naming no usable leader while subscribed: one warning per cause, the subscription kept', async (t) => {
  const master = await FakeMaster.start();
  const zk = new MemoryZooKeeper();
  const leader = '/mesos/json.info_0000000001';
  zk.set(leader, masterInfoJson('127.0.0.1', '127.0.0.1', Number(master.hostPort.split(':')[1])));
  zk.set('/mesos/log_replicas/0000000001', 'x'); // the group znode stays when no master is in it, as in ZooKeeper
  const detector = new ZkMasterDetector('zk://zk1:2181/mesos', { openSession: zk.open });
  const f = await makeDriver(t, { master, options: { detector } });
  await f.waitInput('subscribed', 1, WAIT_MS);
  const said = (): string[] => f.logs.filter((l) => /master detector/.test(l));
  zk.set(leader, 'garbage'); // the leader's MasterInfo unreadable
  await waitUntil(() => said()[0], WAIT_MS, 'a warning');
  t.match(said()[0], /^WARN the master detector finds no usable leading master \(.*json\.info_0000000001.*not JSON.*\); staying subscribed to http:\/\/127\.0\.0\.1:\d+ while its stream lasts$/);
  zk.set(leader, 'GARBAGE'); // the same cause (the same message): not said again
  await waitUntil(() => zk.watchCount === 2 || undefined, WAIT_MS, 'the watches set again');
  t.equal(said().length, 1, 'said once per cause');
  zk.remove(leader); // the group empty: another cause
  await waitUntil(() => said()[1], WAIT_MS, 'a second warning');
  t.match(said()[1], /no Mesos master is registered/);
  t.equal(f.driver.state, 'subscribed', 'still on the master whose stream runs');
  t.same(f.inputsOf('disconnected'), []);
});
