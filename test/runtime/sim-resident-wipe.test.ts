import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import t from 'tap';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { startSim } from '../../src/runtime/start-sim';
import { tempDir, waitFor, within } from '../e2e/e2e-kit';

/*
 * `wipe=true` of a resident app's task on the simulated cluster, through the API (fastify.inject):
 * Marathon 1.11's TaskKiller force-expunges the instance, reservation or not, so the 200 comes
 * with the instance gone and a replacement (a new instance) on its way; the reservation and volume
 * it leaves on the agent are destroyed and unreserved when offered (Marathon's
 * OfferMatcherReconciler), so none is left on the simulated master. Its events are those of any
 * force-expunged instance: `instance_changed_event` Killed, no terminal `status_update_event`, and
 * its task's late end reported as `unknown_instance_terminated_event`.
 */

const WORKLOAD = [
  'name: resident-wipe', 'seed: 11', 'options: { defaultRole: db }', 'duration: 1h',
  'cluster:', '  agents:', '    - { count: 2, resources: { cpus: 2, mem: 2048, disk: 1000, ports: "31000-31010" } }',
  'timeline: []', '',
].join('\n');

interface SimPool { readonly reservationId?: string }
interface TaskJson { readonly id: string; readonly state: string; readonly localVolumes: unknown[] }

t.test('a wiped resident instance is gone when the 200 comes; its reservation and volume are released', async (t) => {
  const workload = join(tempDir(t, 'pacer-resident-wipe-'), 'workload.yaml');
  writeFileSync(workload, WORKLOAD);
  const config: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload, speed: 200 };
  const pacer = await startSim(config);
  t.teardown(() => pacer.close());
  const events: Record<string, unknown>[] = [];
  const source = new EventSource(`http://${pacer.address}/v2/events`);
  t.teardown(() => source.close());
  for (const type of ['status_update_event', 'instance_changed_event', 'unknown_instance_terminated_event']) {
    source.addEventListener(type, (e) => void events.push(JSON.parse(e.data) as Record<string, unknown>));
  }
  await within(new Promise<void>((resolve) => source.addEventListener('open', () => resolve(), { once: true })), 'the event stream to open');
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await pacer.app.inject({ method, url, ...(payload !== undefined ? { payload } : {}) });
    return { status: res.statusCode, json: res.json() as Record<string, unknown> };
  };
  const tasks = async (): Promise<TaskJson[]> => (await call('GET', '/v2/apps/db/tasks')).json.tasks as TaskJson[];
  const reservations = async (): Promise<string[]> => {
    const agents = (await call('GET', '/pacer/v1/sim')).json.agents as { pools: SimPool[] }[];
    return agents.flatMap((a) => a.pools.flatMap((p) => (p.reservationId !== undefined ? [p.reservationId] : []))).sort();
  };

  const created = await call('POST', '/v2/apps', {
    id: '/db', cmd: 'sleep 100000', instances: 1, cpus: 0.5, mem: 128, disk: 0,
    container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 100 } }] },
  });
  t.equal(created.status, 201, 'created');
  const [first] = await waitFor(async () => {
    const listed = await tasks();
    return listed.length === 1 && listed[0].state === 'TASK_RUNNING' && listed;
  }, 'the resident task to run');
  const instanceId = first.id.replace(/\._app\.\d+$/, '');
  t.same(await reservations(), [instanceId], 'its reservation is on the simulated master');

  const wiped = await call('DELETE', `/v2/apps/db/tasks/${first.id}?wipe=true`);
  t.equal(wiped.status, 200);
  t.notOk((await tasks()).some((task) => task.id.startsWith(`${instanceId}.`)), 'not listed once the 200 has arrived');

  const replacement = await waitFor(async () => {
    const listed = await tasks();
    return listed.length === 1 && listed[0].state === 'TASK_RUNNING' && listed[0];
  }, 'the replacement to run');
  t.notOk(replacement.id.startsWith(`${instanceId}.`), 'the replacement is a new instance');
  const replacementId = replacement.id.replace(/\._app\.\d+$/, '');
  const left = await waitFor(async () => {
    const ids = await reservations();
    return !ids.includes(instanceId) && ids;
  }, 'the wiped instance\'s reservation to be released');
  t.same(left, [replacementId], 'only the replacement\'s reservation is left');
  await waitFor(() => events.some((e) => e.eventType === 'unknown_instance_terminated_event' && e.instanceId === instanceId), 'its task\'s end, reported as an unknown instance\'s');
  const mine = events.filter((e) => e.instanceId === instanceId || e.taskId === first.id);
  t.same(mine.filter((e) => e.eventType === 'status_update_event').map((e) => e.taskStatus).filter((s) => s !== 'TASK_STAGING' && s !== 'TASK_STARTING' && s !== 'TASK_RUNNING'), [], 'no status_update_event after it ran');
  t.equal(mine.filter((e) => e.eventType === 'instance_changed_event').at(-1)?.condition, 'Killed', 'its last instance change is Killed');
});
