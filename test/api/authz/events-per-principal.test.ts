import t from 'tap';
import { RawSseClient } from '../events/raw-sse-client';
import { startSseServer } from '../events/sse-server-fixture';
import { waitUntil } from '../events/wait-until';
import { makeApp } from '../../builders/run-spec-builders';
import { makeOffer } from '../../builders/cluster-builders';
import { rootWith } from '../../builders/group-builders';
import { as, authzAuth, type TestPrincipal } from './authz-kit';

const STREAM = { Accept: 'text/event-stream' };

/** Run spec ids an event names (`appId`, `runSpecId`, its plan's actions, `groupId`). */
function namedIds(data: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const key of ['appId', 'runSpecId', 'groupId']) if (typeof data[key] === 'string') out.push(data[key]);
  const plan = data.plan as { steps?: { actions?: Record<string, string>[] }[] } | undefined;
  for (const step of plan?.steps ?? []) for (const a of step.actions ?? []) out.push(a.app ?? a.pod ?? '');
  return out;
}

t.test('each /v2/events subscriber receives only the events about what it may view (real HTTP on 127.0.0.1)', async (tt) => {
  const { auth } = authzAuth(tt);
  const server = await startSseServer({ auth });
  tt.teardown(() => server.app.close());
  const clients = new Map<TestPrincipal, RawSseClient>();
  for (const who of ['admin', 'alice', 'bob', 'nobody'] as const) {
    const client = await RawSseClient.open(server.baseUrl, '/v2/events', { ...STREAM, ...as(who) });
    tt.equal(client.statusCode, 200, `${who} may subscribe`);
    tt.teardown(() => client.close());
    clients.set(who, client);
  }
  const unauthenticated = await RawSseClient.open(server.baseUrl, '/v2/events', STREAM);
  tt.equal(unauthenticated.statusCode, 401, 'no credentials: 401');
  unauthenticated.close();
  await waitUntil(() => server.hub.subscriberCount === 4, 'four subscribers');

  // One root change touching both teams: one deployment, one plan with both apps.
  const root = rootWith(server.harness.scheduler.root(), '2026-01-01T00:00:01.000Z',
    makeApp({ id: '/team-a/web', instances: 1, cpus: 0.1, mem: 16 }), makeApp({ id: '/team-b/api', instances: 1, cpus: 0.1, mem: 16 }));
  tt.ok(server.harness.deployRoot(root).ok, 'deployed');
  server.harness.run(server.harness.offer(makeOffer({ cpus: 4, mem: 4096 })));
  await waitUntil(() => (clients.get('admin')?.parsed().events ?? []).some((e) => e.event === 'deployment_success'), 'the admin sees the deployment succeed');
  // The admin's stream is complete; the others were written in the same fan-outs, before it.
  const admin = clients.get('admin')!.parsed().events;
  await waitUntil(() => clients.get('alice')!.parsed().events.some((e) => e.event === 'deployment_success'), 'alice sees her deployment');
  const alice = clients.get('alice')!.parsed().events;
  // Each stream is written once per loop turn and its frames reach each socket on their own: wait
  // for bob's too before reading what he saw (nobody's is only read for what must be absent).
  await waitUntil(() => clients.get('bob')!.parsed().events.some((e) => e.event === 'deployment_success'), 'bob sees the deployment succeed');
  const bob = clients.get('bob')!.parsed().events;
  const nobody = clients.get('nobody')!.parsed().events;

  tt.ok(admin.some((e) => e.event === 'event_stream_attached'), 'the admin (ViewResource) sees stream membership');
  tt.ok(admin.some((e) => namedIds(e.data).includes('/team-b/api')), 'the admin sees team-b');
  tt.ok(admin.some((e) => e.event === 'deployment_info' && 'original' in (e.data.plan as object)), 'the admin gets full plans');
  for (const e of alice) {
    tt.notOk(namedIds(e.data).includes('/team-b/api'), `alice: ${e.event} names nothing of team-b`);
    tt.not(e.event, 'event_stream_attached', 'alice does not see other clients attach');
  }
  tt.ok(alice.some((e) => e.event === 'status_update_event' && e.data.appId === '/team-a/web'), 'alice sees her task');
  const aliceInfo = alice.find((e) => e.event === 'deployment_info');
  tt.ok(aliceInfo !== undefined, 'alice sees her deployment_info');
  tt.notOk('original' in ((aliceInfo?.data.plan ?? {}) as object), 'the plan is trimmed to the light form (the roots hold the whole tree)');
  tt.same([...new Set(namedIds(aliceInfo?.data ?? {}))], ['/team-a/web'], 'the shared plan is trimmed to alice\'s app');
  const adminInfo = admin.find((e) => e.event === 'deployment_info');
  tt.same([...new Set(namedIds(adminInfo?.data ?? {}))].sort(), ['/team-a/web', '/team-b/api'], 'the admin\'s plan names both');
  tt.ok(bob.some((e) => e.data.appId === '/team-a/web') && bob.some((e) => e.data.appId === '/team-b/api'), 'bob views both teams');
  tt.same(nobody.filter((e) => namedIds(e.data).some((id) => id.startsWith('/team-'))), [], 'nobody sees no team event');
  tt.same(nobody.map((e) => e.event).filter((name) => name !== 'group_change_success'), [], 'nobody sees nothing at all but root group changes');
});
