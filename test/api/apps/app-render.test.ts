import t from 'tap';
import { resolveAppEmbed } from '../../../src/api/render/app-embed';
import { appTaskCounts, appTaskStats } from '../../../src/api/render/app-task-stats';
import { Instance } from '../../../src/scheduler/model/instance';
import type { TaskState } from '../../../src/scheduler/model/task-state';

t.test('embed names with any accepted prefix resolve to the same parts (fact 36)', async (t) => {
  const cases: [string[], string[]][] = [
    [['apps.tasks'], ['deployments', 'tasks']],
    [['app.tasks'], ['deployments', 'tasks']],
    [['group.apps.tasks'], ['deployments', 'tasks']],
    [['tasks'], ['deployments', 'tasks']],
    [['apps.failures'], ['deployments', 'lastTaskFailure', 'tasks']],
    [['apps.counts', 'app.deployments', 'readiness', 'apps.taskStats', 'apps.lastTaskFailure'],
      ['counts', 'deployments', 'lastTaskFailure', 'readiness', 'taskStats']],
    [['apps.nonsense', 'group.groups', 'apps.', 'constructor', 'apps.__proto__'], []],
  ];
  for (const [embed, expected] of cases) t.strictSame([...resolveAppEmbed(embed)].sort(), expected, embed.join());
});

let nextInstance = 0;

/** An instance with one task in `state` (undefined: launched, no status yet), started at `startedAtMs`. */
function instance(version: string, state: TaskState | undefined, o: { healthy?: boolean; startedAtMs?: number; scheduled?: boolean } = {}): Instance {
  return Instance.from({
    instanceId: `a.instance-${++nextInstance}`, runSpecId: '/a', kind: 'app', runSpecVersion: version, configVersion: version,
    incarnation: 1, goal: 'Running', condition: o.scheduled === true ? 'Scheduled' : state === 'TASK_RUNNING' ? 'Running' : 'Staging',
    conditionSinceMs: 0, role: '*', healthy: o.healthy,
    tasks: o.scheduled === true ? [] : [{
      taskId: 't', state, condition: 'Running', hostPorts: [], resources: { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 },
      launchedAtMs: 0, startedAtMs: o.startedAtMs,
    }],
  });
}

t.test('counts: launched without status or staging = staged; health only when known (fact 35)', async (t) => {
  const counts = appTaskCounts([
    instance('v1', undefined), instance('v1', 'TASK_STAGING'), instance('v1', 'TASK_RUNNING', { healthy: true }),
    instance('v1', 'TASK_RUNNING', { healthy: false }), instance('v1', 'TASK_RUNNING'), instance('v1', undefined, { scheduled: true }),
  ]);
  t.strictSame(counts, { tasksStaged: 2, tasksRunning: 3, tasksHealthy: 1, tasksUnhealthy: 1 });
});

t.test('tasksStats groups by version and reports life times (fact 36)', async (t) => {
  const versionInfo = { lastConfigChangeAt: 'v2', lastScalingAt: 'v3' };
  const stats = appTaskStats([
    instance('v1', 'TASK_RUNNING', { startedAtMs: 0 }),
    instance('v2', 'TASK_RUNNING', { startedAtMs: 4000 }),
    instance('v3', 'TASK_RUNNING', { startedAtMs: 8000 }),
  ], versionInfo, 10_000);
  t.strictSame(Object.keys(stats), ['startedAfterLastScaling', 'withLatestConfig', 'withOutdatedConfig', 'totalSummary']);
  t.strictSame(stats.totalSummary, {
    stats: { counts: { staged: 0, running: 3, healthy: 0, unhealthy: 0 }, lifeTime: { averageSeconds: (10 + 6 + 2) / 3, medianSeconds: 6 } },
  });
  t.match(stats.withOutdatedConfig, { stats: { counts: { running: 1 }, lifeTime: { averageSeconds: 10 } } });
  t.match(stats.withLatestConfig, { stats: { counts: { running: 2 } } });
  t.match(stats.startedAfterLastScaling, { stats: { counts: { running: 1 } } });
  t.strictSame(appTaskStats([], versionInfo, 0), {}, 'no instances: no groups');
  t.strictSame(appTaskStats([instance('v2', undefined)], versionInfo, 0).totalSummary,
    { stats: { counts: { staged: 1, running: 0, healthy: 0, unhealthy: 0 } } }, 'no life time before a task started');
});
