import t from 'tap';
import { makeApi } from '../api-fixture';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import type { IpAddress } from '../../../src/scheduler/model/ip-address';
import type { StatusUpdateEvent } from '../../../src/scheduler/model/events';
import { body, launch } from './tasks-fixture';

const FIRST: readonly IpAddress[] = [{ ipAddress: '10.1.2.3', protocol: 'IPv4' }, { ipAddress: 'fd00::7', protocol: 'IPv6' }];
const LATER: readonly IpAddress[] = [{ ipAddress: '10.9.9.9', protocol: 'IPv4' }];

/**
 * A task's `ipAddresses` (fact 40) and `status_update_event.ipAddresses` (fact 107) are the
 * container's addresses as the cluster reported them when the task first ran: Marathon takes them
 * from its first TASK_RUNNING (NetworkInfo.update) and keeps them.
 */
t.test('an app task: [] until it runs, the first TASK_RUNNING\'s addresses after, in every task list and the event', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [task] = launch(fx, makeApp({ id: '/web', instances: 1 }));
  const ipsOf = async (url: string): Promise<unknown> => {
    const res = await fx.app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, url);
    const json = body<{ tasks?: { ipAddresses: unknown }[]; app?: { tasks: { ipAddresses: unknown }[] } }>(res);
    return (json.tasks ?? json.app?.tasks ?? [])[0]?.ipAddresses;
  };
  const lists = ['/v2/tasks', '/v2/apps/web/tasks', '/v2/apps/web'];
  fx.harness.status(task.taskId, 'TASK_STARTING', { ipAddresses: LATER });
  for (const url of lists) t.same(await ipsOf(url), [], `${url}: none while starting (only the first TASK_RUNNING counts)`);
  fx.harness.clearRecords();
  fx.harness.status(task.taskId, 'TASK_RUNNING', { ipAddresses: FIRST });
  const want = FIRST.map((ip) => ({ ...ip }));
  for (const url of lists) t.strictSame(await ipsOf(url), want, `${url}: the first TASK_RUNNING's addresses`);
  const [event] = fx.harness.events('status_update_event') as StatusUpdateEvent[];
  t.strictSame(event.ipAddresses, want, 'status_update_event of that update');
  fx.harness.status(task.taskId, 'TASK_RUNNING', { ipAddresses: LATER, healthy: true });
  for (const url of lists) t.strictSame(await ipsOf(url), want, `${url}: a later update does not change them`);
  const text = (await fx.app.inject({ method: 'GET', url: '/v2/tasks' })).body;
  t.match(text, /"ipAddresses":\[\{"ipAddress":"10\.1\.2\.3","protocol":"IPv4"\},\{"ipAddress":"fd00::7","protocol":"IPv6"\}\]/, 'Marathon\'s key order');
});

t.test('a task whose first TASK_RUNNING gave no addresses keeps [] (as Marathon)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [task] = launch(fx, makeApp({ id: '/web', instances: 1 }));
  fx.harness.status(task.taskId, 'TASK_RUNNING');
  fx.harness.status(task.taskId, 'TASK_RUNNING', { ipAddresses: LATER });
  const res = await fx.app.inject({ method: 'GET', url: '/v2/apps/web/tasks' });
  t.same(body<{ tasks: { ipAddresses: unknown }[] }>(res).tasks[0].ipAddresses, []);
});

t.test('a pod instance\'s networks: one unnamed entry with its tasks\' distinct addresses', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const launched = launch(fx, makePod({ id: '/pod', containers: [{ name: 'a' }, { name: 'b' }] }), makeOffer());
  const statusOf = async (): Promise<{ instances: { networks: unknown }[] }> =>
    body(await fx.app.inject({ method: 'GET', url: '/v2/pods/pod::status' }));
  const tasks = launched;
  t.equal(tasks.length, 2, 'one task per container');
  t.same((await statusOf()).instances[0].networks, [], 'none before they run');
  fx.harness.status(tasks[0].taskId, 'TASK_RUNNING', { ipAddresses: FIRST });
  fx.harness.status(tasks[1].taskId, 'TASK_RUNNING', { ipAddresses: [FIRST[0], LATER[0]] });
  t.strictSame((await statusOf()).instances[0].networks, [{ addresses: ['10.1.2.3', 'fd00::7', '10.9.9.9'] }]);
});
