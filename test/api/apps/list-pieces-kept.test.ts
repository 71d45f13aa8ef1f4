import t from 'tap';
import { appsJson, appsPieces } from '../../../src/api/render/app-json';
import { hasCurrentTaskText, taskText } from '../../../src/api/render/task-json';
import { listTasksText } from '../../../src/api/v2/tasks/list-tasks';
import type { AppSpec } from '../../../src/scheduler/model/app';
import type { ListPiece } from '../../../src/api/render/list-body-cache';
import { apiFor, appBody, call, running } from './apps-kit';

/*
 * What load balancers poll — `GET /v2/apps?embed=apps.tasks` (marathon-lb; Traefik adds
 * `apps.deployments` and `apps.readiness`) — is answered from kept pieces: an app whose
 * definition, instances and small parts did not change gives the very same list piece, so the
 * list's kept encoding is answered again (list-body-cache.ts). Before, every poll made every app's
 * text anew (38 MB joined and encoded for 100,000 tasks), and a task kept one text only: polling
 * `/v2/tasks` (service ports filled) and `embed=apps.tasks` (`servicePorts: []`) in turn rendered
 * every task of an app with a service port again at every read of either.
 */

/** The same piece: the very same parts array and bytes (a read with tasks embedded wraps them anew). */
const samePiece = (a: ListPiece, b: ListPiece): boolean => a.key === b.key && a.parts === b.parts && a.bytes === b.bytes;

const EMBEDS: readonly (readonly string[])[] = [
  ['apps.tasks', 'counts', 'deployments'],
  ['apps.tasks', 'apps.deployments', 'apps.readiness', 'counts'],
  ['apps.failures', 'counts', 'deployments'],
  ['apps.tasks', 'apps.lastTaskFailure', 'apps.readiness', 'counts', 'deployments'],
];

t.test('embed=apps.tasks: an unchanged app gives the very same piece; a changed one a new piece, the others the same', async (t) => {
  const fx = apiFor(t);
  const check = { protocol: 'MESOS_HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 0 };
  await running(t, fx, appBody({ id: '/a', instances: 2, portDefinitions: [{ port: 0 }] }));
  const [b1] = await running(t, fx, appBody({ id: '/b', instances: 2 }));
  const [h1] = await running(t, fx, appBody({ id: '/h', instances: 1, portDefinitions: [{ port: 0 }], healthChecks: [check] }));
  const specs = (): AppSpec[] => fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
  for (const embed of EMBEDS) {
    const set = new Set(embed);
    const first = appsPieces(fx.deps, specs(), set);
    const again = appsPieces(fx.deps, specs(), set);
    t.same(first.map((p) => p.key), ['/a', '/b', '/h'], `${embed.join(',')}: one piece per app`);
    // With tasks embedded a read answers a piece with its bytes (kept for the embeds polled, app-json.ts): the same parts and bytes.
    t.ok(samePiece(again[0], first[0]), `${embed.join(',')}: /a unchanged, the same piece`);
    t.ok(samePiece(again[1], first[1]), `${embed.join(',')}: /b unchanged, the same piece`);
    t.ok(first[0].bytes !== undefined && first[0].bytes.toString('utf8') === `${first[0].parts.join(',')},`, `${embed.join(',')}: /a's piece comes with its bytes`);
    t.not(again[2].parts, first[2].parts, `${embed.join(',')}: /h has health checks (results change with every probe, without a new token): made again`);
    t.equal(again[2].bytes, undefined, `${embed.join(',')}: and not kept encoded`);
    t.equal(again[2].parts[0], first[2].parts[0], `${embed.join(',')}: /h unchanged: the same text (the kept encoding compares it)`);
  }
  const withoutResult = appsPieces(fx.deps, specs(), new Set(EMBEDS[0]));
  fx.harness.status(h1.taskId, 'TASK_RUNNING', { healthy: true });
  const withResult = appsPieces(fx.deps, specs(), new Set(EMBEDS[0]));
  t.not(withResult[2].parts, withoutResult[2].parts, '/h: a health result (no new instances token) makes a new piece');
  t.match(withResult[2].parts[0], /"healthCheckResults":\[\{/, 'showing the result');
  const set = new Set(EMBEDS[0]);
  const before = appsPieces(fx.deps, specs(), set);
  fx.harness.status(b1.taskId, 'TASK_FAILED', { message: 'exit 1' });
  const after = appsPieces(fx.deps, specs(), set);
  t.ok(samePiece(after[0], before[0]), 'a task of /b failed: /a the same piece');
  t.not(after[1].parts, before[1].parts, 'and /b a new one');
  t.match(after[1].parts[0], /"state":"TASK_FAILED"|"tasksRunning":1/, 'showing the change');
  t.equal((await call(fx, 'GET', '/v2/apps?embed=apps.tasks')).status, 200);
});

t.test('embed=apps.tasks: an app\'s piece is its tasks\' kept texts as parts, its own text around them (no copy of them)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/three', instances: 3 }));
  await running(t, fx, appBody({ id: '/one', instances: 1 }));
  await running(t, fx, appBody({ id: '/none', instances: 0 }));
  const specs = (): AppSpec[] => fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
  for (const embed of EMBEDS.filter((e) => e.includes('apps.tasks'))) {
    const set = new Set(embed);
    const pieces = appsPieces(fx.deps, specs(), set);
    const objects = appsJson(fx.deps, specs(), set);
    t.same(pieces.map((p) => p.parts.length), [3, 1, 1], `${embed.join(',')}: one part per task (an app without tasks: one)`);
    pieces.forEach((piece, i) => t.same(JSON.parse(piece.parts.join(',')), objects[i], `${embed.join(',')}: ${piece.key}'s parts joined with , are its JSON`));
    const three = fx.deps.scheduler.instances('/three').flatMap((inst) => inst.tasks.map((task) => taskText(fx.deps, inst, task, '[]')));
    t.equal(pieces[0].parts[1], three[1], `${embed.join(',')}: the middle part is the task's app-scoped text itself`);
    t.ok(pieces[0].parts[0].endsWith(three[0]) && pieces[0].parts[2].startsWith(three[2]), `${embed.join(',')}: the first and last carry the app's text around theirs`);
  }
});

t.test('a task keeps its app-scoped text and its /v2/tasks text side by side', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/web', instances: 2, portDefinitions: [{ port: 0 }] }));
  const spec = fx.deps.scheduler.runSpec('/web') as AppSpec;
  const portsText = JSON.stringify(spec.portDefinitions.map((p) => p.port));
  t.not(portsText, '[]', 'the app has a service port');
  listTasksText(fx.deps, new Set(), () => true);
  t.equal((await call(fx, 'GET', '/v2/apps?embed=apps.tasks')).status, 200);
  for (const instance of fx.deps.scheduler.instances('/web')) {
    for (const task of instance.tasks) {
      t.ok(hasCurrentTaskText(instance, task, portsText), `${task.taskId}: its /v2/tasks text kept`);
      t.ok(hasCurrentTaskText(instance, task, '[]'), `${task.taskId}: its app-scoped text kept`);
    }
  }
});

t.test('the web UI\'s list (embed=apps.lastTaskFailure): the very same piece while unchanged, a new one after a task failure', async (t) => {
  const fx = apiFor(t);
  const check = { protocol: 'MESOS_HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 0 };
  const [a1] = await running(t, fx, appBody({ id: '/a', instances: 1 }));
  await running(t, fx, appBody({ id: '/h', instances: 1, portDefinitions: [{ port: 0 }], healthChecks: [check] }));
  const specs = (): AppSpec[] => fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
  const embed = new Set(['apps.counts', 'apps.deployments', 'apps.lastTaskFailure']);
  const first = appsPieces(fx.deps, specs(), embed);
  const again = appsPieces(fx.deps, specs(), embed);
  t.equal(again[0], first[0], '/a unchanged: the same piece');
  t.equal(again[1], first[1], '/h unchanged (no tasks embedded): the same piece');
  fx.harness.status(a1.taskId, 'TASK_FAILED', { message: 'exit 3' });
  const after = appsPieces(fx.deps, specs(), embed);
  t.not(after[0], first[0], '/a: a task failed, a new piece');
  t.match(after[0].parts[0], /"lastTaskFailure":\{[^}]*"message":"exit 3"/, 'with the failure');
  t.equal(after[1], first[1], '/h: the same piece');
});

t.test('embed=apps.taskStats: the kept basis gives the life times at each read (the clock moves, the instances do not)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a', instances: 3 }));
  const specs = (): AppSpec[] => fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
  const embed = new Set(['apps.taskStats', 'counts', 'deployments']);
  const stats = (): { averageSeconds: number; medianSeconds: number } => {
    const text = appsPieces(fx.deps, specs(), embed)[0].parts[0];
    const reference = JSON.stringify(appsJson(fx.deps, specs(), embed)[0]);
    t.equal(text, reference, 'the text is the object rendering\'s JSON');
    return (JSON.parse(text) as { tasksStats: { totalSummary: { stats: { lifeTime: { averageSeconds: number; medianSeconds: number } } } } }).tasksStats.totalSummary.stats.lifeTime;
  };
  const before = stats();
  fx.harness.advance(5000);
  const after = stats();
  t.equal(after.averageSeconds - before.averageSeconds, 5, 'five seconds older on average');
  t.equal(after.medianSeconds - before.medianSeconds, 5, 'and by the median');
  const scheduler = fx.deps.scheduler;
  const read = scheduler.instances.bind(scheduler);
  let reads = 0;
  scheduler.instances = (id: string) => {
    reads++;
    return read(id);
  };
  t.teardown(() => {
    scheduler.instances = read;
  });
  appsPieces(fx.deps, specs(), embed);
  t.equal(reads, 0, 'an unchanged app\'s instances are not read again');
});

t.test('the list\'s own embeds (counts, deployments): an app whose instances did not change gives the very same piece; its counts changing, a new one', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a', instances: 2 }));
  const [b1] = await running(t, fx, appBody({ id: '/b', instances: 2 }));
  const specs = (): AppSpec[] => fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
  for (const embed of [['counts', 'deployments'], ['counts'], ['deployments'], []]) {
    const set = new Set(embed);
    const first = appsPieces(fx.deps, specs(), set);
    const again = appsPieces(fx.deps, specs(), set);
    t.equal(again[0], first[0], `${embed.join(',')}: /a unchanged, the same piece`);
    t.equal(again[1], first[1], `${embed.join(',')}: /b unchanged, the same piece`);
    t.same(first.map((p) => JSON.parse(p.parts.join(','))), appsJson(fx.deps, specs(), set), `${embed.join(',')}: the pieces are the apps' JSON`);
  }
  const set = new Set(['counts', 'deployments']);
  const before = appsPieces(fx.deps, specs(), set);
  fx.harness.status(b1.taskId, 'TASK_FAILED', { message: 'exit 1' });
  const after = appsPieces(fx.deps, specs(), set);
  t.equal(after[0], before[0], 'a task of /b failed: /a the same piece');
  t.not(after[1], before[1], '/b a new one');
  t.match(JSON.parse(after[1].parts[0]), { id: '/b', tasksRunning: 1 }, 'with its new counts');
  t.equal(appsPieces(fx.deps, specs(), set)[1], after[1], 'and that piece again while nothing changes');
  t.same(after.map((p) => JSON.parse(p.parts.join(','))), appsJson(fx.deps, specs(), set), 'the pieces are the apps\' JSON');
});
