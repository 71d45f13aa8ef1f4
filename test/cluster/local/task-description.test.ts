import t from 'tap';
import { containerImageOf } from '../../../src/cluster/local/container-image';
import { taskExit } from '../../../src/cluster/local/exit-status';
import { taskCommand } from '../../../src/cluster/local/task-command';
import { taskEnv } from '../../../src/cluster/local/task-env';
import { envName } from '../../../src/scheduler/launcher/task-env';
import type { Offer } from '../../../src/scheduler/model/offer';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makeEndpoint, makePod, makePortMapping } from '../../builders/run-spec-builders';
import { appLaunch, podLaunch } from './local-fixture';

const offer: Offer = makeOffer({ offerId: 'o1', agent: { agentId: 'agent-1', hostname: 'h1' }, cpus: 2, mem: 1000, disk: 1000, ports: [[5000, 5009]] });

t.test('app environment: ports, names from port mappings, precedence', async (t) => {
  const noPorts = appLaunch(offer, makeApp({ env: { MESOS_TASK_ID: 'mine', HOST: 'mine' } })).task;
  const env = taskEnv(noPorts, '/sb');
  t.notOk('PORT' in env || 'PORTS' in env || 'PORT0' in env, 'no port variables without ports');
  t.equal(env.HOST, 'mine', 'the app env may override Marathon variables');
  t.equal(env.MESOS_TASK_ID, noPorts.taskId, 'but not the executor\'s');
  t.equal(env.MARATHON_APP_LABELS, '');
  const mapped = makeApp({
    networks: [{ mode: 'container/bridge', labels: {} }],
    container: { type: 'MESOS', portMappings: [makePortMapping({ containerPort: 80, name: 'internal' }), makePortMapping({ containerPort: 8080, hostPort: 0, name: 'web-ui' })] },
  });
  const task = appLaunch(offer, mapped).task;
  t.equal(taskEnv(task, '/sb').PORT_WEB_UI, String(task.hostPorts[0]), 'names of mappings with a host port');
  t.equal(envName('a.b-c'), 'A_B_C');
});

t.test('pod environment: endpoints of every container', async (t) => {
  const pod = makePod({
    env: { POD_WIDE: 'p', OVERRIDDEN: 'pod' },
    containers: [
      { name: 'a', endpoints: [makeEndpoint({ name: 'x', hostPort: 0 }), makeEndpoint({ name: 'y', containerPort: 7 })] },
      { name: 'b', endpoints: [makeEndpoint({ name: 'z', hostPort: 0 })], env: { ONLY_B: '1', OVERRIDDEN: 'b' } },
    ],
  });
  const { tasks } = podLaunch(offer, pod);
  const envA = taskEnv(tasks[0], '/sb/a');
  const envB = taskEnv(tasks[1], '/sb/b');
  for (const env of [envA, envB]) t.match(env, { ENDPOINT_X: String(tasks[0].hostPorts[0]), ENDPOINT_Y: '7', ENDPOINT_Z: String(tasks[1].hostPorts[0]), POD_WIDE: 'p' });
  t.equal(envA.ONLY_B, undefined);
  t.equal(envB.ONLY_B, '1');
  t.equal(envA.OVERRIDDEN, 'pod');
  t.equal(envB.OVERRIDDEN, 'b', 'the container\'s variables win over the pod\'s');
  t.equal(envB.MESOS_SANDBOX, '/sb/b');
});

t.test('what runs: cmd through a shell, args directly, pod shell commands', async (t) => {
  const cases = [
    { name: 'cmd', launch: appLaunch(offer, makeApp({ cmd: 'echo hi' })).task, want: { ok: true, file: '/bin/sh', args: ['-c', 'echo hi'], direct: undefined } },
    { name: 'simple cmd', launch: appLaunch(offer, makeApp({ cmd: 'sleep 30' })).task, want: { ok: true, file: '/bin/sh', args: ['-c', 'sleep 30'], direct: ['sleep', '30'] } },
    { name: 'args', launch: appLaunch(offer, makeApp({ cmd: undefined, args: ['/bin/echo', 'a b'] })).task, want: { ok: true, file: '/bin/echo', args: ['a b'] } },
    { name: 'neither', launch: appLaunch(offer, makeApp({ cmd: undefined })).task, want: { ok: false } },
    { name: 'pod', launch: podLaunch(offer, makePod({ containers: [{ name: 'c', command: 'run' }] })).tasks[0], want: { ok: true, file: '/bin/sh', args: ['-c', 'run'] } },
    { name: 'pod without command', launch: podLaunch(offer, makePod({ containers: [{ name: 'c', command: undefined }] })).tasks[0], want: { ok: false } },
  ];
  for (const c of cases) t.match(taskCommand(c.launch), c.want, c.name);
});

t.test('container images', async (t) => {
  const cases = [
    { name: 'no container', container: undefined, want: undefined },
    { name: 'Mesos container without image', container: { type: 'MESOS', volumes: [], portMappings: [] }, want: undefined },
    { name: 'docker', container: { type: 'DOCKER', docker: { image: 'img:1' }, portMappings: [] }, want: 'img:1' },
    { name: 'Mesos container with a Docker image', container: { type: 'MESOS', docker: { image: 'busybox' }, portMappings: [] }, want: 'busybox' },
  ] as const;
  for (const c of cases) t.equal(containerImageOf(appLaunch(offer, makeApp({ container: c.container })).task), c.want, c.name);
  const pod = makePod({ containers: [{ name: 'a' }, { name: 'b', image: { kind: 'DOCKER', id: 'redis', forcePull: false, labels: {} } }] });
  const { tasks } = podLaunch(offer, pod);
  t.same(tasks.map(containerImageOf), [undefined, 'redis']);
});

t.test('exit statuses', async (t) => {
  const cases = [
    { code: 0, signal: null, killing: false, want: { state: 'TASK_FINISHED', message: 'Command exited with status 0' } },
    { code: 1, signal: null, killing: false, want: { state: 'TASK_FAILED', message: 'Command exited with status 1' } },
    { code: null, signal: 'SIGKILL', killing: false, want: { state: 'TASK_FAILED', message: 'Command terminated with signal SIGKILL' } },
    { code: 0, signal: null, killing: true, want: { state: 'TASK_KILLED' } },
    { code: null, signal: 'SIGTERM', killing: true, want: { state: 'TASK_KILLED', message: 'Command terminated with signal SIGTERM' } },
    { code: null, signal: null, killing: false, want: { state: 'TASK_FAILED', message: /unknown/ } },
  ];
  for (const c of cases) t.match(taskExit(c.code, c.signal, c.killing), c.want, JSON.stringify(c));
});
