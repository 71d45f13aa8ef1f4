import t from 'tap';
import { eventViewOf } from '../../../src/api/authz/event-view';
import { authorizedDeps } from '../../../src/api/authz/authorized-deps';
import { runAs } from '../../../src/api/authz/request-access';
import { parsePolicyFile } from '../../../src/api/authz/policy-file';
import { Access, type Policy } from '../../../src/api/authz/policy';
import { makeApi } from '../api-fixture';
import { makeApp } from '../../builders/run-spec-builders';
import { POLICY } from './authz-kit';

const policy = parsePolicyFile(POLICY) as Policy;
const alice = new Access('alice', policy);
const viewer = new Access('viewer', policy);

/** Events of every kind of subject, and whether alice (owner of /team-a, nothing at /) sees each. */
const CASES: readonly [string, Record<string, unknown>, boolean][] = [
  ['an app event of team-a', { eventType: 'health_status_changed_event', appId: '/team-a/web' }, true],
  ['an app event of team-b', { eventType: 'health_status_changed_event', appId: '/team-b/api' }, false],
  ['an instance event by runSpecId', { eventType: 'instance_changed_event', runSpecId: '/team-b/api' }, false],
  ['an api_post_event of team-a', { eventType: 'api_post_event', appDefinition: { id: '/team-a/web' } }, true],
  ['an api_post_event of team-b', { eventType: 'api_post_event', appDefinition: { id: '/team-b/api' } }, false],
  ['a pod event of team-a (its uri)', { eventType: 'pod_updated_event', uri: '/v2/pods/team-a/db::instances' }, true],
  ['a pod event of team-b (its uri)', { eventType: 'pod_deleted_event', uri: '/v2/pods/team-b/db' }, false],
  ['a pod event of team-a whose uri escapes its slashes', { eventType: 'pod_updated_event', uri: '/v2/pods/%2Fteam-a%2Fdb' }, true],
  ['a pod event of team-b whose uri escapes its slashes', { eventType: 'pod_updated_event', uri: '/v2/pods/team-b%2Fdb' }, false],
  ['a pod event whose uri does not decode', { eventType: 'pod_deleted_event', uri: '/v2/pods/team-a/%ZZ' }, false],
  ['a pod created by POST /v2/pods (no id in the uri)', { eventType: 'pod_created_event', uri: '/v2/pods' }, false],
  ['a group change of its group', { eventType: 'group_change_success', groupId: '/team-a' }, true],
  ['a group change of the root (the path to its group)', { eventType: 'group_change_success', groupId: '/' }, true],
  ['a group change of another group', { eventType: 'group_change_failed', groupId: '/team-b' }, false],
  ['a stream membership event', { eventType: 'event_stream_attached', remoteAddress: '10.0.0.1' }, false],
  ['a deployment of team-b only', { eventType: 'deployment_success', id: 'd', plan: { id: 'd', steps: [{ actions: [{ action: 'ScaleApplication', app: '/team-b/api' }] }], version: 'v' } }, false],
];

t.test('what one subscriber receives, by subject', async (tt) => {
  const view = eventViewOf(alice);
  for (const [what, event, seen] of CASES) {
    const shown = view(event as { eventType: string });
    tt.equal(shown !== undefined, seen, what);
    if (seen && !('plan' in event)) tt.equal(shown, event, `${what}: the event itself, shared with every subscriber`);
  }
  const all = eventViewOf(viewer);
  for (const [what, event] of CASES) tt.equal(all(event as { eventType: string }), event, `the viewer of everything: ${what}`);
});

t.test('a deployment event is trimmed to the actions it may view, the plan made light', async (tt) => {
  const event = {
    eventType: 'deployment_step_success', timestamp: 't',
    plan: { id: 'd', original: { id: '/' }, target: { id: '/' }, steps: [{ actions: [{ action: 'StartApplication', app: '/team-a/web' }, { action: 'StartPod', pod: '/team-b/db' }] }], version: 'v' },
    currentStep: { actions: [{ action: 'StartApplication', app: '/team-a/web' }, { action: 'StartPod', pod: '/team-b/db' }] },
  };
  tt.same(eventViewOf(alice)(event), {
    eventType: 'deployment_step_success', timestamp: 't',
    plan: { id: 'd', steps: [{ actions: [{ action: 'StartApplication', app: '/team-a/web' }] }], version: 'v' },
    currentStep: { actions: [{ action: 'StartApplication', app: '/team-a/web' }] },
  });
});

t.test('a command outside any request handler is refused (fails closed); an open route\'s is not checked', async (tt) => {
  const fx = makeApi();
  tt.teardown(() => fx.app.close());
  const deps = authorizedDeps(fx.deps);
  const put = { type: 'putRunSpec', spec: makeApp({ id: '/team-a/x' }) } as const;
  const DENIED = { statusCode: 403, body: { message: 'Not Authorized to perform this action!' } } as unknown as Error;
  tt.throws(() => deps.submit(put), DENIED, 'no caller: refused');
  tt.throws(() => runAs(new Access('bob', policy), () => deps.submit(put)), DENIED, 'bob may not create in /team-a');
  tt.same(fx.harness.scheduler.runSpecs(), [], 'nothing was created');
  tt.equal(runAs(alice, () => deps.submit(put)).ok, true, 'alice may');
  tt.equal(runAs('open', () => deps.submit({ type: 'scale', runSpecId: '/team-a/x', instances: 2, force: true })).ok, true, 'an open route is not checked');
});
