import t from 'tap';
import type { StoredRecordKind } from '../../../src/scheduler/ports/store';
import { decodeRecord, encodeRecord, type RecordKey } from '../../../src/store/records/record-codec';
import { migrateRecordText } from '../../../src/store/records/record-migrations';
import { STORE_FORMAT_VERSION } from '../../../src/store/records/store-format-version';
import { populatedHarness } from '../sqlite/core-scenario';
import { exactDiff } from '../sqlite/store-fixture';
import { Instance } from '../../../src/scheduler/model/instance';
import { RunSpecRecordReader } from '../../../src/store/run-spec-record';
import { rootToStored } from '../../../src/store/records/spec-records';
import { deploymentToStored } from '../../../src/store/records/stored-deployment';
import { StoredRootVersions } from '../../../src/store/records/stored-root-versions';
import type { Group } from '../../../src/scheduler/index';

const state = populatedHarness().store.load();
const pod = state.instances.find((i) => i.kind === 'pod' && i.agent !== undefined);
const deployment = state.deployments[0];
if (pod === undefined || deployment === undefined) throw new Error('the scenario must leave a placed pod instance and a deployment');
const instanceText = encodeRecord('instance', Instance.from(pod));
const deploymentText = encodeRecord('deployment', deployment);
const app = state.runSpecs.find((s) => s.kind === 'app');
if (app === undefined || state.root === undefined) throw new Error('the scenario must leave an app and a root');
const runSpecText = encodeRecord('runSpec', { ...app, id: '/a' });
const rootRecord = JSON.parse(encodeRecord('root', state.root)) as Record<string, unknown>;
const edit = (text: string, change: (record: Record<string, unknown>) => void): string => {
  const record = JSON.parse(text) as Record<string, unknown>;
  change(record);
  return JSON.stringify(record);
};

t.test('a record stored and read back is the core object again, as a fresh copy', async (t) => {
  const decoded = decodeRecord('instance', instanceText, { key: pod.instanceId });
  t.ok(decoded.ok);
  if (!decoded.ok) return;
  t.equal(exactDiff(decoded.value, pod), undefined, 'the same instance');
  t.not(decoded.value.tasks, pod.tasks, 'not the same arrays');
  // A deployment's roots refer to the run spec versions (store format 6): a load reads those first.
  const reader = new RunSpecRecordReader();
  for (const v of state.versions) decodeRecord('runSpecVersion', encodeRecord('runSpecVersion', v), { key: v.id, version: v.version }, reader);
  const d = decodeRecord('deployment', deploymentText, { key: deployment.plan.id }, reader);
  t.equal(d.ok ? exactDiff(d.value, deployment) : d.reason, undefined, 'the same deployment');
  t.notOk(deploymentText.includes('"cmd"') || deploymentText.includes('"args"'), 'which holds no app whole');
});

t.test('a task\'s container addresses are stored and read back', async (t) => {
  const withIps = Instance.from(pod);
  withIps.tasks[0].ipAddresses = [{ ipAddress: '10.1.2.3', protocol: 'IPv4' }, { ipAddress: 'fd00::7', protocol: 'IPv6' }];
  const decoded = decodeRecord('instance', encodeRecord('instance', withIps), { key: pod.instanceId });
  t.equal(decoded.ok ? exactDiff(decoded.value, withIps) : decoded.reason, undefined, 'the same instance, addresses included');
  t.strictSame(decoded.ok ? decoded.value.tasks[0].ipAddresses : undefined, withIps.tasks[0].ipAddresses);
});

const refused: readonly { name: string; kind: StoredRecordKind; text: unknown; at: RecordKey; reason: string | RegExp }[] = [
  { name: 'not JSON', kind: 'instance', text: '{"instanceId":', at: { key: pod.instanceId }, reason: /^does not decode \(/ },
  {
    name: 'a field renamed (the core model changed without a new format)', kind: 'instance', at: { key: pod.instanceId },
    text: edit(instanceText, (r) => { r.conditionSince = r.conditionSinceMs; delete r.conditionSinceMs; }),
    reason: "does not match StoredInstanceV1: must have required property 'conditionSinceMs'",
  },
  {
    name: 'an unknown field', kind: 'instance', at: { key: pod.instanceId },
    text: edit(instanceText, (r) => { r.extra = 1; }), reason: 'does not match StoredInstanceV1: must NOT have additional properties',
  },
  {
    name: 'a condition that does not exist', kind: 'instance', at: { key: pod.instanceId },
    text: edit(instanceText, (r) => { (r.tasks as Record<string, unknown>[])[1].condition = 'Sleeping'; }),
    reason: 'does not match StoredInstanceV1: /tasks/1/condition must be equal to one of the allowed values',
  },
  {
    name: 'an attribute of an unknown type', kind: 'instance', at: { key: pod.instanceId },
    text: edit(instanceText, (r) => { (r.agent as { attributes: unknown[] }).attributes.push({ name: 'x', type: 'blob' }); }),
    reason: /^does not match StoredInstanceV1: \/agent\/attributes\/\d+\/type must be equal to one of the allowed values$/,
  },
  {
    name: 'a container address of an unknown protocol', kind: 'instance', at: { key: pod.instanceId },
    text: edit(instanceText, (r) => { (r.tasks as Record<string, unknown>[])[0].ipAddresses = [{ ipAddress: '10.0.0.1', protocol: 'IPX' }]; }),
    reason: 'does not match StoredInstanceV1: /tasks/0/ipAddresses/0/protocol must be equal to one of the allowed values',
  },
  { name: 'stored under another id', kind: 'instance', text: instanceText, at: { key: 'other' }, reason: 'is not the record its key names' },
  {
    name: 'a deployment action Marathon does not have', kind: 'deployment', at: { key: deployment.plan.id },
    text: edit(deploymentText, (r) => { (r.plan as { steps: { actions: { action: string }[] }[] }).steps[0].actions[0].action = 'Explode'; }),
    reason: 'does not match StoredDeploymentV1: /plan/steps/0/actions/0/action must be equal to one of the allowed values',
  },
  {
    name: 'a deployment at a negative step', kind: 'deployment', at: { key: deployment.plan.id },
    text: edit(deploymentText, (r) => { r.stepIndex = -1; }), reason: 'does not match StoredDeploymentV1: /stepIndex must be >= 0',
  },
  { name: 'a run spec record without its kind', kind: 'runSpec', text: '{"version":"v"}', at: { key: '/a' }, reason: "does not match a stored run spec: must have required property 'kind'" },
  {
    name: 'a run spec the converter refuses', kind: 'runSpec', at: { key: '/a' },
    text: edit(runSpecText, (r) => { (r.app as Record<string, unknown>).cpus = -1; }), reason: /^app \/a: \/cpus: /,
  },
  {
    name: 'a group holding an app without a version', kind: 'rootVersion', at: { key: rootRecord.version as string },
    text: JSON.stringify({ ...rootRecord, apps: [{ id: '/a', cmd: 'sleep 1' }] }), reason: 'group /: app /a: no version',
  },
  { name: 'a group without its id', kind: 'root', text: '{"version":"v"}', at: { key: '/' }, reason: "does not match a stored group: must have required property 'id'" },
  { name: 'an empty framework id', kind: 'frameworkId', text: '', at: { key: '/' }, reason: 'is not a framework id' },
  { name: 'a framework id that is not text', kind: 'frameworkId', text: 7, at: { key: '/' }, reason: 'is not a framework id' },
];

t.test('a record that cannot be loaded is refused with why, never thrown', async (t) => {
  for (const c of refused) {
    const decoded = decodeRecord(c.kind, c.text, c.at);
    t.equal(decoded.ok, false, c.name);
    if (!decoded.ok) t.match(decoded.reason, c.reason, c.name);
  }
});

t.test('migration 1 → 2 renames AGENT_* protocols wherever a protocol member is, and nothing else', async (t) => {
  const v1 = JSON.stringify({ id: '/a', version: 'v', healthChecks: [{ protocol: 'AGENT_HTTP' }], wire: { healthChecks: [{ protocol: 'AGENT_TCP' }] }, labels: { protocol: 'AGENT_X', note: '"protocol":"AGENT_TCP"' } });
  t.same(JSON.parse(migrateRecordText('runSpec', v1, 1)), {
    id: '/a', version: 'v', healthChecks: [{ protocol: 'MESOS_HTTP' }], wire: { healthChecks: [{ protocol: 'MESOS_TCP' }] },
    labels: { protocol: 'AGENT_X', note: '"protocol":"AGENT_TCP"' },
  });
  t.equal(migrateRecordText('runSpec', v1, STORE_FORMAT_VERSION), v1, 'a current record is left as it is');
  t.equal(migrateRecordText('runSpec', '{not json', 1), '{not json', 'text that is not JSON is kept for load to set aside');
  t.equal(migrateRecordText('frameworkId', 'AGENT_HTTP', 1), 'AGENT_HTTP', 'the framework id never migrates');
  const proto = JSON.stringify({ healthChecks: [{ protocol: 'toString' }] });
  t.equal(migrateRecordText('runSpec', proto, 1), proto, "an object's own names only (not Object.prototype's)");
});

t.test('roots and deployments are encoded as JSON.stringify of their records, byte for byte, the cached roots too', async (t) => {
  const root = state.root;
  if (root === undefined) return t.fail('the scenario must leave a root');
  const plain = (value: unknown): string => JSON.stringify(value);
  const rootPlain = plain(rootToStored(root));
  const deploymentPlain = plain(deploymentToStored(deployment));
  // Twice each: the first encodes, the second is the kept text of the same object.
  for (const round of ['first', 'again']) {
    t.equal(encodeRecord('root', root), rootPlain, `root (${round})`);
    t.equal(encodeRecord('rootVersion', root), rootPlain, `root version (${round})`);
    t.equal(encodeRecord('deployment', deployment), deploymentPlain, `deployment (${round})`);
  }
  // Another object with the same content (no identity shared) gives the same text; a changed copy its own.
  const copy: Group = { ...root, version: '2031-01-01T00:00:00.000Z' };
  t.equal(encodeRecord('root', copy), plain(rootToStored(copy)), 'a new root is encoded anew');
  for (const n of [1, 2, 3, 4, 5]) encodeRecord('root', { ...root, version: `2031-01-0${n}T00:00:00.000Z` });
  t.equal(encodeRecord('deployment', deployment), deploymentPlain, 'a deployment whose roots are no longer kept is encoded anew, the same');
  // With the store's root versions (format 8): a root the store holds as that very object is a reference.
  const stored = new StoredRootVersions();
  stored.saved(deployment.original);
  const byReference = encodeRecord('deployment', deployment, stored);
  t.equal(byReference, plain(deploymentToStored(deployment, stored)), 'by reference, byte for byte as the record');
  t.match(JSON.parse(byReference), { original: { rootVersion: deployment.original.version }, target: { id: '/' } }, 'the held original by version, the target whole');
  stored.saved({ ...deployment.original });
  t.match(JSON.parse(encodeRecord('deployment', deployment, stored)), { original: { id: '/' } }, 'another object of the same version is not taken for it');
});
