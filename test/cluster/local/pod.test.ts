import t from 'tap';
import type { PodSpec } from '../../../src/scheduler/model/pod';
import { makeEndpoint, makePod } from '../../builders/run-spec-builders';
import { makeFixture, podLaunch, sleep } from './local-fixture';

function twoContainers(web: string, sidecar: string): PodSpec {
  return makePod({
    id: '/shop/cart',
    labels: { tier: 'front' },
    containers: [
      { name: 'web', command: web, cpus: 0.2, mem: 16, endpoints: [makeEndpoint({ name: 'http', hostPort: 0 })], env: { MODE: 'web' } },
      {
        name: 'sidecar',
        command: sidecar,
        endpoints: [makeEndpoint({ name: 'admin-port', hostPort: 0 }), makeEndpoint({ name: 'metrics', containerPort: 9100 })],
        env: { MODE: 'sidecar' },
      },
    ],
  });
}

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

t.test('a pod runs one process per container, all seeing every endpoint of the instance', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, tasks } = podLaunch(offer, twoContainers('env > env.txt; sleep 30', 'env > env.txt; sleep 30'));
  f.cluster.accept(offer.offerId, [op], 0);
  const [web, sidecar] = tasks;
  for (const task of tasks) {
    await f.waitStatus(task.taskId, 'TASK_RUNNING');
    t.same(f.states(task.taskId), ['TASK_STARTING', 'TASK_RUNNING'], `${task.containerName} reports its own states`);
  }
  const endpoints = { ENDPOINT_HTTP: String(web.hostPorts[0]), ENDPOINT_ADMIN_PORT: String(sidecar.hostPorts[0]), ENDPOINT_METRICS: '9100' };
  t.match(parseEnv(await f.sandboxFile(web.taskId, 'env.txt')), {
    ...endpoints, MODE: 'web', MARATHON_APP_ID: '/shop/cart', MARATHON_CONTAINER_ID: 'web', MARATHON_CONTAINER_RESOURCE_CPUS: '0.2',
    MARATHON_CONTAINER_RESOURCE_MEM: '16.0', MARATHON_APP_LABEL_TIER: 'front', MESOS_TASK_ID: web.taskId, HOST: '127.0.0.1',
  });
  t.match(parseEnv(await f.sandboxFile(sidecar.taskId, 'env.txt')), { ...endpoints, MODE: 'sidecar', MARATHON_CONTAINER_ID: 'sidecar', MESOS_TASK_ID: sidecar.taskId });
  t.not(f.cluster.tasks()[0].pid, f.cluster.tasks()[1].pid, 'one process each');
});

t.test('killing one task of a pod kills the whole instance', async (t) => {
  const f = makeFixture(t, { taskKilling: true });
  const offer = await f.startAndOffer();
  const { op, tasks } = podLaunch(offer, twoContainers('sleep 30', 'sleep 30'));
  f.cluster.accept(offer.offerId, [op], 0);
  for (const task of tasks) await f.waitStatus(task.taskId, 'TASK_RUNNING');
  f.cluster.kill(tasks[1].taskId, 'agent-1', 3000);
  for (const task of tasks) {
    await f.waitStatus(task.taskId, 'TASK_KILLED');
    t.same(f.states(task.taskId), ['TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING', 'TASK_KILLED']);
  }
});

t.test('a failing container takes its siblings down; a finishing one does not', async (t) => {
  const cases = [
    { name: 'failure', first: 'exit 2', firstState: 'TASK_FAILED', siblingStates: ['TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLED'] },
    { name: 'success', first: 'exit 0', firstState: 'TASK_FINISHED', siblingStates: ['TASK_STARTING', 'TASK_RUNNING'] },
  ] as const;
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const f = makeFixture(t);
      const offer = await f.startAndOffer();
      const { op, tasks } = podLaunch(offer, twoContainers(`sleep 0.1; ${c.first}`, 'sleep 30'));
      f.cluster.accept(offer.offerId, [op], 0);
      await f.waitStatus(tasks[0].taskId, c.firstState);
      if (c.name === 'failure') await f.waitStatus(tasks[1].taskId, 'TASK_KILLED');
      else await sleep(200);
      t.same(f.states(tasks[1].taskId), c.siblingStates);
    });
  }
});
