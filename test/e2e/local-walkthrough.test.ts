import { readdirSync } from 'node:fs';
import { EventSource } from 'eventsource';
import t, { type Test } from 'tap';
import { patientSignal } from '../harness/wait';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, isAlive, startPacer, TaskProcesses, type JsonObject, type Pacer } from './pacer-kit';

/**
 * The five-minute walk-through as a test: `npm start`'s embedded default (startLocal: SQLite
 * store, local processes, REST API, SSE) on a temp dir and a free port; an app that runs a tiny
 * HTTP server on $PORT0 with a scheduler-run HTTP health check; scale; restart pacer (tasks keep
 * running and are re-adopted); delete. Every wait is bounded.
 */

const APP_ID = '/walkthrough/hello';
const APP_PATH = '/v2/apps/walkthrough/hello';

/** `node -e "…"` serving `ok` on 127.0.0.1:$PORT0 (the node running this test, so no PATH lookup). */
const SERVER_CMD = `${JSON.stringify(process.execPath)} -e "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT0,'127.0.0.1')"`;

const APP = {
  id: APP_ID,
  cmd: SERVER_CMD,
  cpus: 0.1,
  mem: 32,
  instances: 1,
  portDefinitions: [{ port: 0, name: 'http' }],
  // Probed every second; the timeout and the failures allowed are generous so that a loaded
  // machine answering slowly never gets the task killed as unhealthy in the middle of the test.
  healthChecks: [{
    protocol: 'HTTP', path: '/', portIndex: 0,
    gracePeriodSeconds: 60, intervalSeconds: 1, timeoutSeconds: 10, maxConsecutiveFailures: 30,
  }],
};

/** An SSE subscriber of `/v2/events` keeping every event it sees, by name; closed after the test. */
class EventLog {
  readonly events: { type: string; data: JsonObject }[] = [];
  private readonly source: EventSource;

  private constructor(t: Test, url: string, types: readonly string[]) {
    this.source = new EventSource(url);
    for (const type of types) {
      this.source.addEventListener(type, (e) => this.events.push({ type, data: JSON.parse(String(e.data)) as JsonObject }));
    }
    t.teardown(() => this.close());
  }

  static async open(t: Test, pacer: Pacer, types: readonly string[]): Promise<EventLog> {
    const log = new EventLog(t, `${pacer.base}/v2/events`, [...types, 'event_stream_attached']);
    await waitFor(() => log.source.readyState === EventSource.OPEN, 'the event stream to open');
    return log;
  }

  find(type: string, match: (data: JsonObject) => boolean = () => true): JsonObject | undefined {
    return this.events.find((e) => e.type === type && match(e.data))?.data;
  }

  close(): void {
    this.source.close();
  }
}

/** The app as GET /v2/apps/{id} shows it (counts and tasks are always embedded, fact 38). */
async function getApp(pacer: Pacer): Promise<AppView> {
  const { status, json } = await pacer.request('GET', APP_PATH);
  if (status !== 200) throw new Error(`GET ${APP_PATH}: ${status} ${JSON.stringify(json)}`);
  return json.app as AppView;
}

interface AppView {
  readonly instances: number;
  readonly tasksRunning: number;
  readonly tasksHealthy: number;
  readonly tasksUnhealthy: number;
  readonly deployments: readonly { id: string }[];
  readonly tasks: readonly { id: string; host: string; ports: readonly number[]; state: string }[];
}

/** Wait until the app has `n` healthy tasks and no deployment; returns that view. */
function healthyAndSettled(pacer: Pacer, n: number, what: string): Promise<AppView> {
  return waitFor(async () => {
    const app = await getApp(pacer);
    return app.tasksHealthy === n && app.tasksRunning === n && app.tasks.length === n && app.deployments.length === 0 && app;
  }, what);
}

async function body(url: string): Promise<string> {
  const res = await fetch(url, { signal: patientSignal() });
  return res.text();
}

t.test('walk-through: deploy, health, scale, restart with re-adoption, delete', async (t) => {
  const dir = tempDir(t);
  const config = e2eConfig(dir);
  const processes = new TaskProcesses(t);

  // 1. Start pacer and subscribe to the event stream.
  const first = await startPacer(t, config);
  t.match(first.running.address, /^127\.0\.0\.1:\d+$/, 'listening on 127.0.0.1');
  t.not(first.running.address, '127.0.0.1:0', 'the real port, not 0');
  t.equal((await first.request('GET', '/ping')).text, 'pong');
  const events = await EventLog.open(t, first, ['health_status_changed_event', 'deployment_success', 'api_post_event']);

  // 2. Deploy the app.
  const created = await first.request('POST', '/v2/apps', APP);
  t.equal(created.status, 201, 'POST /v2/apps → 201');
  t.match(created.json, { id: APP_ID, instances: 1 });

  // 3. It becomes healthy: the event stream says so, and so does the app.
  const alive = await waitFor(() => events.find('health_status_changed_event', (d) => d.appId === APP_ID && d.alive === true),
    'health_status_changed_event alive=true');
  t.match(alive, { appId: APP_ID, alive: true, instanceId: /^walkthrough_hello\.instance-/, eventType: 'health_status_changed_event' });
  const one = await healthyAndSettled(first, 1, 'tasksHealthy 1');
  t.equal(one.tasks.length, 1);
  const [task] = one.tasks;
  t.equal(task.state, 'TASK_RUNNING');
  t.equal(await body(`http://${task.host}:${task.ports[0]}/`), 'ok', 'the task answers on its host port');
  // Streamed events may reach the client a turn after the API shows their effect: wait for them.
  t.ok(await waitFor(() => events.find('api_post_event', (d) => (d.appDefinition as JsonObject | undefined)?.id === APP_ID), 'api_post_event on the stream'), 'api_post_event streamed');
  processes.record(first.running);

  // 4. Scale to 2.
  const scaled = await first.request('PUT', APP_PATH, { instances: 2 });
  t.equal(scaled.status, 200, 'PUT {"instances":2} → 200');
  t.match(scaled.json, { deploymentId: /\S/, version: /\S/ });
  const two = await healthyAndSettled(first, 2, 'tasksHealthy 2');
  t.ok(await waitFor(() => events.find('deployment_success', (d) => d.id === scaled.json.deploymentId), 'deployment_success of the scale on the stream'), 'deployment_success streamed for the scale');
  t.ok(two.tasks.some((x) => x.id === task.id), 'the first task was kept');
  const taskIds = two.tasks.map((x) => x.id).sort();
  const pids = processes.record(first.running);
  t.same([...pids.keys()].sort(), taskIds, 'the cluster runs exactly the API\'s tasks');
  for (const x of two.tasks) t.equal(await body(`http://${x.host}:${x.ports[0]}/`), 'ok', `${x.id} answers`);

  // 5. Stop pacer (with a subscriber attached: close must not wait for it); the tasks keep running.
  await first.close();
  events.close();
  for (const [taskId, pid] of pids) t.ok(isAlive(pid), `${taskId} keeps running after close()`);
  for (const x of two.tasks) t.equal(await body(`http://${x.host}:${x.ports[0]}/`), 'ok', `${x.id} still serves while pacer is down`);

  // 6. Start again on the same store and sandbox: everything is recovered, nothing relaunched.
  const second = await startPacer(t, config);
  const recovered = await getApp(second);
  t.equal(recovered.instances, 2, 'the app and its scale are recovered from the store');
  t.same(recovered.tasks.map((x) => x.id).sort(), taskIds, 'the same task ids, straight from the store');
  const again = await healthyAndSettled(second, 2, 'tasksHealthy 2 after the restart');
  t.same(again.tasks.map((x) => x.id).sort(), taskIds, 'no task was relaunched');
  t.same(new Map([...processes.record(second.running)].sort()), new Map([...pids].sort()), 'the cluster re-adopted the same processes');
  t.same(readdirSync(config.sandboxRoot).filter((f) => f.startsWith('walkthrough_hello.')).sort(), taskIds, 'no sandbox of a new task');

  // 7. Delete: the processes are gone.
  const deleted = await second.request('DELETE', APP_PATH);
  t.equal(deleted.status, 200, 'DELETE → 200');
  await waitFor(() => [...pids.values()].every((pid) => !isAlive(pid)), 'the task processes to exit');
  t.pass('every task process is gone');
  t.equal((await second.request('GET', APP_PATH)).status, 404, 'the app is gone from the API at once');
  // The kills are confirmed by the cluster's exit polling of adopted processes (every 500 ms).
  await waitFor(() => second.running.cluster.tasks().length === 0, 'the cluster to forget the killed tasks');
  await waitFor(async () => {
    const { json } = await second.request('GET', '/v2/deployments');
    return Array.isArray(json) && json.length === 0;
  }, 'the delete deployment to finish');
  t.pass('the delete deployment finished and the cluster forgot the tasks');
  await second.close();
});
