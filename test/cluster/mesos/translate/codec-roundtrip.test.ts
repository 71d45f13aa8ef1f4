import t from 'tap';
import { decodeCall, decodeEvent, encodeCall } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Call, MesosFormat } from '../../../../src/cluster/mesos/codec/mesos-model';
import { frameworkInfo } from '../../../../src/cluster/mesos/translate/framework-info';
import { launchesToMesos } from '../../../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import {
  acceptCall, acknowledgeCall, declineCall, killCall, reconcileCall, reviveCall, subscribeCall, suppressCall, updateFrameworkCall,
} from '../../../../src/cluster/mesos/translate/scheduler-calls';
import { statusFromMesos } from '../../../../src/cluster/mesos/translate/status-from-mesos';
import { uuidToBytes } from '../../../../src/cluster/mesos/translate/uuid-bytes';
import { makeApp, makeEndpoint, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { listSamples, readSample } from '../codec/sample-files';
import { coreLaunches, makeMesosOffer } from './mesos-builders';

/** Every call pacer builds, with launches of an app and a pod on one offer. */
function calls(): { name: string; call: Call }[] {
  const mesosOffer = makeMesosOffer({ allocationRole: 'web' });
  const specs = [
    makeApp({ id: '/web', role: 'web', hostPorts: [0], labels: { a: 'b' }, healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP' })] }),
    makePod({
      id: '/pod', role: 'web', networkMode: 'container',
      containers: [{ name: 'c', endpoints: [makeEndpoint({ name: 'http', hostPort: 0, containerPort: 80 })], healthCheck: makeHealthCheck({ protocol: 'MESOS_TCP', endpoint: 'http' }) }],
      networks: [{ mode: 'container', name: 'dcos', labels: {} }],
    }),
  ];
  const operations = launchesToMesos(coreLaunches(offerFromMesos(mesosOffer), specs), { frameworkId: 'F1', offer: mesosOffer });
  const info = frameworkInfo({ name: 'pacer', user: 'nobody', frameworkId: 'F1', failoverTimeoutSeconds: 604_800, roles: ['web'], taskKilling: true, gpus: true });
  return [
    { name: 'subscribe', call: subscribeCall(info, ['web']) },
    { name: 'accept', call: acceptCall('F1', 'O1', operations, 0) },
    { name: 'decline', call: declineCall('F1', ['O1'], 120_000) },
    { name: 'kill', call: killCall('F1', 't1', 'S1', 3000) },
    { name: 'acknowledge', call: acknowledgeCall('F1', 'S1', 't1', 'rcBL+HIlQ4qkLPO+p+wBJw==') },
    { name: 'reconcile', call: reconcileCall('F1', [{ taskId: 't1', agentId: 'S1' }]) },
    { name: 'implicit reconcile', call: reconcileCall('F1', []) },
    { name: 'revive', call: reviveCall('F1', ['web']) },
    { name: 'suppress', call: suppressCall('F1', ['web']) },
    { name: 'update framework', call: updateFrameworkCall(info, ['web']) },
  ];
}

t.test('the codec encodes every call the translation builds, and reads it back unchanged', async (t) => {
  for (const format of ['protobuf', 'json'] as const satisfies readonly MesosFormat[]) {
    for (const { name, call } of calls()) {
      const decoded = decodeCall(encodeCall(call, format), format);
      t.same(decoded, call, `${name} (${format})`);
    }
  }
});

t.test('recorded binary events decode into what the translation expects', async (t) => {
  const recordedFiles = listSamples('pb/events', '.bin').filter((f) => /-(OFFERS|UPDATE)\.bin$/.test(f));
  let offers = 0;
  let updates = 0;
  for (const file of recordedFiles) {
    const event = decodeEvent(readSample(`pb/events/${file}`), 'protobuf');
    for (const offer of event.offers?.offers ?? []) {
      const core = offerFromMesos(offer);
      t.equal(core.pools.length, 1, `${file}: one unreserved pool`);
      t.equal(core.allocationRole, '*');
      offers++;
    }
    const status = event.update?.status;
    if (status !== undefined) {
      const core = statusFromMesos(status);
      t.equal(core.uuid !== undefined, status.source !== 'SOURCE_MASTER', `${file}: ${core.taskId} ${core.state} uuid iff not from the master`);
      if (status.uuid !== undefined) t.strictSame(uuidToBytes(core.uuid ?? ''), status.uuid, `${file}: uuid bytes round trip`);
      updates++;
    }
  }
  t.ok(offers > 0 && updates > 0, `${offers} offers and ${updates} updates translated`);
});
