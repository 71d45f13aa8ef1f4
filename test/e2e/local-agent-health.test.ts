import t from 'tap';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses, type JsonObject } from './pacer-kit';

/**
 * Agent-run health checks on the embedded local cluster, end to end: the local agent runs the
 * check, reports `healthy` in a status update, and the core turns it into the task's
 * `healthCheckResults` (Marathon 1.11's shape).
 */

const NODE = JSON.stringify(process.execPath);

t.test('a COMMAND check and a MESOS_TCP check run on the local agent show up in healthCheckResults', async (t) => {
  const dir = tempDir(t);
  const pacer = await startPacer(t, e2eConfig(dir));
  const processes = new TaskProcesses(t);
  const apps = [
    { id: '/agent-health/cmd', cmd: 'sleep 300', healthChecks: [{ protocol: 'COMMAND', command: { value: 'true' } }] },
    {
      id: '/agent-health/tcp',
      cmd: `exec ${NODE} -e "require('net').createServer((c)=>c.end()).listen(process.env.PORT0,'127.0.0.1')"`,
      healthChecks: [{ protocol: 'MESOS_TCP', portIndex: 0 }],
    },
  ];
  for (const app of apps) {
    const check = { gracePeriodSeconds: 30, intervalSeconds: 1, timeoutSeconds: 2, delaySeconds: 0, ...app.healthChecks[0] };
    const res = await pacer.request('POST', '/v2/apps', { ...app, cpus: 0.1, mem: 32, healthChecks: [check] });
    t.equal(res.status, 201, res.text);
  }
  for (const app of apps) {
    const view = await waitFor(async () => {
      processes.record(pacer.running);
      const { json } = await pacer.request('GET', `/v2/apps${app.id}`);
      const got = json.app as JsonObject;
      const task = (got.tasks as JsonObject[] | undefined)?.[0];
      return got.tasksHealthy === 1 && Array.isArray(task?.healthCheckResults) && task.healthCheckResults.length > 0 ? got : undefined;
    }, `${app.id} to be healthy with a result`, 60_000);
    const task = (view.tasks as JsonObject[])[0];
    t.match(task.healthCheckResults, [{ alive: true, consecutiveFailures: 0, firstSuccess: String, lastSuccess: String }], app.id);
    t.match(String((task.healthCheckResults as JsonObject[])[0].instanceId), /\.instance-/, `${app.id}: instanceId`);
  }
});
