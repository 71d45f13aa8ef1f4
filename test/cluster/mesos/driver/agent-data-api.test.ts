import t from 'tap';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { call, pacerOn, WAIT_MS } from './mesos-pacer-fixture';

t.test('/v2/queue?embed=lastUnusedOffers shows a Mesos offer with its resources and the agent attributes (issue 15.3)', async (t) => {
  const { master, pacer, frameworkId } = await pacerOn(t);
  t.equal((await call(pacer, 'POST', '/v2/apps', { id: '/big', cmd: 'sleep 100', cpus: 3, mem: 32 })).status, 201);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  await master.waitForCall('DECLINE', 1, WAIT_MS);
  const { json } = await call(pacer, 'GET', '/v2/queue?embed=lastUnusedOffers');
  const [entry] = (json as { queue: { lastUnusedOffers: unknown }[] }).queue;
  t.match(entry?.lastUnusedOffers, [{ timestamp: /^\d{4}-\d\d-\d\dT/ }]);
  t.same(entry?.lastUnusedOffers, [{
    offer: {
      id: 'O-1', hostname: '127.0.0.1', agentId: 'agent-S0',
      resources: [
        { name: 'cpus', role: '*', scalar: 2 }, { name: 'mem', role: '*', scalar: 4096 }, { name: 'disk', role: '*', scalar: 10000 },
        { name: 'ports', role: '*', ranges: [{ begin: 31000, end: 32000 }] },
      ],
      attributes: [{ name: 'rack', text: 'r1' }, { name: 'zone', text: 'z1' }],
    },
    reason: ['InsufficientCpus'],
    timestamp: (entry?.lastUnusedOffers as { timestamp: string }[] | undefined)?.[0]?.timestamp,
  }]);
});

t.test("a pod instance's agentInfo carries the Mesos agent's attributes (issue 15.3)", async (t) => {
  const { master, pacer, frameworkId } = await pacerOn(t);
  const pod = { id: '/p', containers: [{ name: 'c', exec: { command: { shell: 'sleep 100' } }, resources: { cpus: 0.1, mem: 32 } }] };
  t.equal((await call(pacer, 'POST', '/v2/pods', pod)).status, 201);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT', 1, WAIT_MS);
  const taskId = accept.call.accept?.operations?.[0]?.launchGroup?.taskGroup.tasks?.[0]?.taskId.value ?? '';
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
  const instanceId = await waitUntil(() => pacer.scheduler.instances('/p').find((i) => i.condition === 'Running')?.instanceId, WAIT_MS, 'a running instance');
  const killed = await call(pacer, 'DELETE', `/v2/pods/p::instances/${instanceId}`);
  t.equal(killed.status, 200);
  t.same((killed.json as { agentInfo: unknown }).agentInfo, {
    host: '127.0.0.1', agentId: 'agent-S0', attributes: [{ name: 'rack', text: 'r1' }, { name: 'zone', text: 'z1' }],
  });
});
