import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { tempDir } from '../../harness/temp-dir';
import { appLaunch, execedArgv, makeFixture, podLaunch } from './local-fixture';

t.test('an app task runs with Marathon\'s environment and reports STARTING then RUNNING', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const app = makeApp({
    id: '/prod/web',
    cmd: 'echo $PORT0 > out; env > env.txt; sleep 30',
    hostPorts: [0, 0],
    labels: { team: 'core', 'cost-center': 'a1' },
    env: { GREETING: 'hello', PORT1: 'overridden' },
    cpus: 0.5,
    mem: 64,
    portDefinitions: [{ port: 0, protocol: 'tcp', name: 'http', labels: {} }, { port: 0, protocol: 'tcp', labels: {} }],
  });
  const { op, task } = appLaunch(offer, app);
  f.cluster.accept(offer.offerId, [op], 0);
  const running = await f.waitStatus(task.taskId, 'TASK_RUNNING');
  t.equal(running.agentId, 'agent-1');
  t.ok(running.uuid, 'executor updates carry a uuid');
  t.strictSame(running.ipAddresses, [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }], 'the agent\'s address, as a Mesos agent gives a host-network task\'s');
  t.same(f.states(task.taskId), ['TASK_STARTING', 'TASK_RUNNING']);
  const [p0, p1] = task.hostPorts;
  t.equal((await f.sandboxFile(task.taskId, 'out')).trim(), String(p0), 'PORT0 is the first host port');
  const env = Object.fromEntries((await f.sandboxFile(task.taskId, 'env.txt')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const sandbox = f.cluster.tasks().find((x) => x.taskId === task.taskId)?.sandbox;
  t.match(env, {
    HOST: '127.0.0.1',
    PORT0: String(p0),
    PORT1: 'overridden',
    PORT: String(p0),
    PORTS: `${p0},${p1}`,
    PORT_HTTP: String(p0),
    MARATHON_APP_ID: '/prod/web',
    MARATHON_APP_VERSION: app.version,
    MARATHON_APP_RESOURCE_CPUS: '0.5',
    MARATHON_APP_RESOURCE_MEM: '64.0',
    MARATHON_APP_RESOURCE_DISK: '0.0',
    MARATHON_APP_RESOURCE_GPUS: '0',
    MARATHON_APP_LABELS: 'team cost-center',
    MARATHON_APP_LABEL_TEAM: 'core',
    MARATHON_APP_LABEL_COST_CENTER: 'a1',
    MESOS_TASK_ID: task.taskId,
    MESOS_SANDBOX: sandbox,
    GREETING: 'hello',
  });
  t.notOk('MARATHON_APP_DOCKER_IMAGE' in env, 'no image variable without an image');
});

const exits = [
  { name: 'exit 0 → TASK_FINISHED', cmd: 'exit 0', state: 'TASK_FINISHED', message: /status 0/ },
  { name: 'exit 3 → TASK_FAILED', cmd: 'exit 3', state: 'TASK_FAILED', message: /status 3/ },
  { name: 'killed by a signal → TASK_FAILED', cmd: 'kill -SEGV $$', state: 'TASK_FAILED', message: /signal SIGSEGV/ },
] as const;

for (const c of exits) {
  t.test(c.name, async (t) => {
    const f = makeFixture(t);
    const offer = await f.startAndOffer();
    const { op, task } = appLaunch(offer, makeApp({ cmd: c.cmd }));
    f.cluster.accept(offer.offerId, [op], 0);
    const end = await f.waitStatus(task.taskId, c.state);
    t.match(end.message, c.message);
    t.same(f.states(task.taskId), ['TASK_STARTING', 'TASK_RUNNING', c.state]);
  });
}

t.test('args are exec\'ed without a shell', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const app = makeApp({ cmd: undefined, args: ['/bin/sh', '-c', 'echo "$0" > out', 'with spaces; $HOME'] });
  const { op, task } = appLaunch(offer, app);
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_FINISHED');
  t.equal((await f.sandboxFile(task.taskId, 'out')).trim(), 'with spaces; $HOME');
});

t.test('a simple cmd is exec\'ed as sh would exec it: one process, found on PATH, no shell in between', async (t) => {
  const f = makeFixture(t);
  const task = await f.startAndLaunch(makeApp({ cmd: 'sleep 30' }));
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  const pid = f.cluster.tasks().find((x) => x.taskId === task.taskId)?.pid;
  if (pid === undefined) throw new Error('no pid');
  t.strictSame(await execedArgv(pid), ['sleep', '30'], 'the task\'s process is sleep itself, argv[0] as written');
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  t.equal(children, '', 'no child process');
});

t.test('a simple cmd naming a script: its shebang runs it with argv[0] as written, PWD the sandbox, as under sh -c', async (t) => {
  const script = join(tempDir(t, 'pacer-scripts-'), 'report');
  writeFileSync(script, '#!/bin/sh\necho "$0|$1|$PWD|$(pwd -P)" > out\n', { mode: 0o755 });
  const f = makeFixture(t);
  const task = await f.startAndLaunch(makeApp({ cmd: `${script} one` }));
  await f.waitStatus(task.taskId, 'TASK_FINISHED');
  const [argv0, arg, pwd, physical] = (await f.sandboxFile(task.taskId, 'out')).trim().split('|');
  t.strictSame([argv0, arg], [script, 'one']);
  t.equal(pwd, physical, 'PWD names the working directory');
  t.ok(pwd.endsWith(`/${task.taskId}`), 'which is the task\'s sandbox');
});

t.test('a simple cmd\'s program gets PWD, the sandbox, as sh exports it', async (t) => {
  const f = makeFixture(t);
  const task = await f.startAndLaunch(makeApp({ cmd: 'env' }));
  await f.waitStatus(task.taskId, 'TASK_FINISHED');
  const pwd = (await f.sandboxFile(task.taskId, 'stdout')).split('\n').find((line) => line.startsWith('PWD='));
  t.match(pwd, new RegExp(`^PWD=/.*/${task.taskId.replace(/[.]/g, '\\.')}$`));
});

const fallbacks = [
  { name: 'a program not found: sh runs it and reports status 127', cmd: () => 'no-such-program-of-pacer 1', state: 'TASK_FAILED', out: undefined },
  { name: 'an executable without a shebang: sh runs it as a script', cmd: (dir: string) => join(dir, 'plain'), state: 'TASK_FINISHED', out: 'ran' },
] as const;

for (const c of fallbacks) {
  t.test(`a simple cmd falls back to sh -c: ${c.name}`, async (t) => {
    const dir = tempDir(t, 'pacer-scripts-');
    writeFileSync(join(dir, 'plain'), 'echo ran > out\n', { mode: 0o755 });
    const f = makeFixture(t);
    const task = await f.startAndLaunch(makeApp({ cmd: c.cmd(dir) }));
    const end = await f.waitStatus(task.taskId, c.state);
    if (c.out === undefined) t.match(end.message, /status 127/);
    else t.equal((await f.sandboxFile(task.taskId, 'out')).trim(), c.out);
    t.same(f.states(task.taskId), ['TASK_STARTING', 'TASK_RUNNING', c.state]);
  });
}

t.test('a missing executable fails the launch', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: undefined, args: ['/nonexistent/binary'] }));
  f.cluster.accept(offer.offerId, [op], 0);
  const failed = await f.waitStatus(task.taskId, 'TASK_FAILED');
  t.equal(failed.reason, 'REASON_CONTAINER_LAUNCH_FAILED');
  t.match(failed.message, /could not start \/nonexistent\/binary/);
});

const refusals = [
  {
    name: 'an app with a Docker image',
    build: () => makeApp({ cmd: 'sleep 1', container: { type: 'DOCKER', docker: { image: 'nginx:1.25' }, portMappings: [] } }),
    message: 'the local cluster runs commands only; container images are not supported: nginx:1.25',
    reason: 'REASON_TASK_INVALID',
  },
  {
    name: 'an app with a Mesos container and an image',
    build: () => makeApp({ cmd: 'sleep 1', container: { type: 'MESOS', docker: { image: 'busybox' }, portMappings: [] } }),
    message: 'the local cluster runs commands only; container images are not supported: busybox',
    reason: 'REASON_TASK_INVALID',
  },
  {
    name: 'an app with nothing to run',
    build: () => makeApp({ cmd: undefined }),
    message: 'app /app has neither cmd nor args: the local cluster has nothing to run',
    reason: 'REASON_TASK_INVALID',
  },
] as const;

for (const c of refusals) {
  t.test(`${c.name} is answered TASK_ERROR`, async (t) => {
    const f = makeFixture(t);
    const offer = await f.startAndOffer();
    const { op, task } = appLaunch(offer, c.build());
    const seen = f.offers().length;
    f.cluster.accept(offer.offerId, [op], 0);
    const error = await f.waitStatus(task.taskId, 'TASK_ERROR');
    t.equal(error.message, c.message);
    t.equal(error.reason, c.reason);
    t.equal(error.uuid, undefined, 'master answers carry no uuid');
    t.same(f.cluster.tasks(), [], 'nothing started');
    const next = await f.nextOffer(seen);
    t.equal(next.pools[0].cpusMilli, offer.pools[0].cpusMilli, 'nothing consumed');
  });
}

t.test('a pod container with an image fails the whole group with TASK_ERROR', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const withImage = makePod({
    containers: [{ name: 'a', command: 'sleep 30' }, { name: 'b', command: 'sleep 30', image: { kind: 'DOCKER', id: 'redis:7', forcePull: false, labels: {} } }],
  });
  const { op, tasks } = podLaunch(offer, withImage);
  f.cluster.accept(offer.offerId, [op], 0);
  for (const task of tasks) {
    const error = await f.waitStatus(task.taskId, 'TASK_ERROR');
    t.equal(error.reason, 'REASON_TASK_GROUP_INVALID');
    t.equal(error.message, 'the local cluster runs commands only; container images are not supported: redis:7');
  }
});
