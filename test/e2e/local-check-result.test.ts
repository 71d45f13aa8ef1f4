import t from 'tap';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses, type JsonObject } from './pacer-kit';

/**
 * Marathon's generalized checks (`check`) on the embedded local cluster, end to end: the local
 * agent runs each app's check at its delay and interval, reports each change of its status in a
 * TASK_RUNNING update (REASON_TASK_CHECK_STATUS_UPDATED), and the task JSON shows the latest as
 * Marathon 1.11 does: `checkResult` of `GET /v2/apps/{id}/tasks`. Never acted upon: a failing
 * command check leaves its task running.
 */

const NODE = JSON.stringify(process.execPath);
const TIMING = { intervalSeconds: 1, timeoutSeconds: 1, delaySeconds: 0 };

t.test('HTTP, TCP and COMMAND checks run on the local agent show up as the tasks\' checkResult', async (t) => {
  const dir = tempDir(t);
  const pacer = await startPacer(t, e2eConfig(dir));
  const processes = new TaskProcesses(t);
  const apps: { id: string; cmd: string; check: JsonObject; want: JsonObject }[] = [
    {
      id: '/checks/http', cmd: 'exec python3 -m http.server $PORT0 --bind 127.0.0.1',
      check: { http: { portIndex: 0, path: '/' }, ...TIMING }, want: { http: { statusCode: 200 } },
    },
    {
      id: '/checks/tcp', cmd: `exec ${NODE} -e "require('net').createServer((c)=>c.end()).listen(process.env.PORT0,'127.0.0.1')"`,
      check: { tcp: { portIndex: 0 }, ...TIMING }, want: { tcp: { succeeded: true } },
    },
    { id: '/checks/cmd', cmd: 'sleep 300', check: { exec: { command: { shell: 'exit 3' } }, ...TIMING }, want: { command: { exitCode: 3 } } },
  ];
  for (const app of apps) {
    const res = await pacer.request('POST', '/v2/apps', { id: app.id, cmd: app.cmd, cpus: 0.1, mem: 32, portDefinitions: [{ port: 0 }], check: app.check });
    t.equal(res.status, 201, res.text);
  }
  for (const app of apps) {
    const task = await waitFor(async () => {
      processes.record(pacer.running);
      const { json } = await pacer.request('GET', `/v2/apps${app.id}/tasks`);
      const found = (json.tasks as JsonObject[] | undefined)?.[0];
      return found?.checkResult !== undefined ? found : undefined;
    }, `${app.id} to show a check result`, 60_000);
    t.same(task.checkResult, app.want, app.id);
    t.equal(task.state, 'TASK_RUNNING', `${app.id}: the check is never acted upon`);
  }
  const { json } = await pacer.request('GET', '/v2/tasks');
  const byApp = new Map((json.tasks as JsonObject[]).map((task) => [task.appId, task.checkResult]));
  for (const app of apps) t.same(byApp.get(app.id), app.want, `/v2/tasks: ${app.id}`);
});
