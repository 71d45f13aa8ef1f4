import t from 'tap';
import {
  acceptCall, acknowledgeCall, declineCall, killCall, reconcileCall, refuseFilters, reviveCall, subscribeCall, suppressCall, updateFrameworkCall,
} from '../../../../src/cluster/mesos/translate/scheduler-calls';
import { frameworkInfo } from '../../../../src/cluster/mesos/translate/framework-info';
import { uuidFromBytes } from '../../../../src/cluster/mesos/translate/uuid-bytes';
import type { OfferOperation } from '../../../../src/cluster/mesos/codec/mesos-model';

const F = { value: 'F1' };

t.test('refuse filters in seconds: stated even at 0, never negative, capped at a year', async (t) => {
  const cases = [[0, 0], [5000, 5], [120_000, 120], [1500, 1.5], [-1, 0], [1e12, 31_536_000]];
  for (const [ms, seconds] of cases) t.strictSame(refuseFilters(ms), { refuseSeconds: seconds }, `${ms} ms`);
});

t.test('calls carry the framework id and their sub-message', async (t) => {
  const op: OfferOperation = { type: 'LAUNCH', launch: { taskInfos: [] } };
  const uuid = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const cases = [
    { name: 'accept', call: acceptCall('F1', 'O1', [op], 0), want: { frameworkId: F, type: 'ACCEPT', accept: { offerIds: [{ value: 'O1' }], operations: [op], filters: { refuseSeconds: 0 } } } },
    { name: 'decline', call: declineCall('F1', ['O1', 'O2'], 120_000), want: { frameworkId: F, type: 'DECLINE', decline: { offerIds: [{ value: 'O1' }, { value: 'O2' }], filters: { refuseSeconds: 120 } } } },
    {
      name: 'kill with agent and grace',
      call: killCall('F1', 't1', 'S1', 30_000),
      want: { frameworkId: F, type: 'KILL', kill: { taskId: { value: 't1' }, agentId: { value: 'S1' }, killPolicy: { gracePeriod: { nanoseconds: 30_000_000_000 } } } },
    },
    { name: 'kill without agent', call: killCall('F1', 't1', undefined, 0), want: { frameworkId: F, type: 'KILL', kill: { taskId: { value: 't1' }, killPolicy: { gracePeriod: { nanoseconds: 0 } } } } },
    {
      name: 'acknowledge with the raw uuid bytes',
      call: acknowledgeCall('F1', 'S1', 't1', uuidFromBytes(uuid)),
      want: { frameworkId: F, type: 'ACKNOWLEDGE', acknowledge: { agentId: { value: 'S1' }, taskId: { value: 't1' }, uuid } },
    },
    {
      name: 'explicit reconcile',
      call: reconcileCall('F1', [{ taskId: 't1', agentId: 'S1' }, { taskId: 't2' }]),
      want: { frameworkId: F, type: 'RECONCILE', reconcile: { tasks: [{ taskId: { value: 't1' }, agentId: { value: 'S1' } }, { taskId: { value: 't2' } }] } },
    },
    { name: 'implicit reconcile keeps an empty message', call: reconcileCall('F1', []), want: { frameworkId: F, type: 'RECONCILE', reconcile: {} } },
    { name: 'revive', call: reviveCall('F1', ['web']), want: { frameworkId: F, type: 'REVIVE', revive: { roles: ['web'] } } },
    { name: 'suppress', call: suppressCall('F1', ['web', 'db']), want: { frameworkId: F, type: 'SUPPRESS', suppress: { roles: ['web', 'db'] } } },
  ];
  for (const c of cases) t.strictSame(c.call, c.want, c.name);
});

t.test('subscribe and update framework: ids in both places, suppression restated', async (t) => {
  const opts = { name: 'pacer', user: 'nobody', failoverTimeoutSeconds: 60, roles: ['web'], taskKilling: true, gpus: false };
  const first = frameworkInfo(opts);
  t.strictSame(subscribeCall(first, ['web']), { type: 'SUBSCRIBE', subscribe: { frameworkInfo: first, suppressedRoles: ['web'] } }, 'no framework id on the first subscription');
  const again = frameworkInfo({ ...opts, frameworkId: 'F1' });
  const resubscribe = subscribeCall(again, []);
  t.strictSame(resubscribe.frameworkId, F);
  t.strictSame(resubscribe.subscribe?.frameworkInfo.id, F);
  t.strictSame(resubscribe.subscribe?.suppressedRoles, [], 'an empty list is still stated');
  t.strictSame(updateFrameworkCall(again, ['web']), { frameworkId: F, type: 'UPDATE_FRAMEWORK', updateFramework: { frameworkInfo: again, suppressedRoles: ['web'] } });
  t.throws(() => updateFrameworkCall(first, []), /needs a FrameworkInfo with its id/);
  t.throws(() => acknowledgeCall('F1', 'S1', 't1', 'not base64!'), /not a base64 status uuid/);
});
