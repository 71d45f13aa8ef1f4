import t from 'tap';
import { decodeCall, encodeCall } from '../../src/cluster/mesos/codec/mesos-codec';
import type { Call, TaskInfo } from '../../src/cluster/mesos/codec/mesos-model';
import { launchToMesos } from '../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../src/cluster/mesos/translate/offer-from-mesos';
import { runnableProblem } from '../../src/cluster/local/runnable-problem';
import { makeApp, makePod } from '../builders/run-spec-builders';
import { coreAppLaunch, corePodLaunch, makeMesosOffer } from './mesos/translate/mesos-builders';
import { appLaunch, makeFixture } from './local/local-fixture';

/**
 * Secrets stay references (issue 17): the Mesos translation sends `{"secret": name}` variables as
 * Mesos `Secret` references named by the secret's `source`; the local cluster, which has no secret
 * store, refuses such tasks with TASK_ERROR instead of starting them without the variable.
 */

const secretApp = makeApp({
  id: '/db/client', cmd: 'sleep 100', env: { PLAIN: 'visible' },
  envSecrets: { DB_PASSWORD: 'dbpw' }, secrets: { dbpw: { source: '/vault/db/password' } },
});

const SECRET_VARIABLE = { name: 'DB_PASSWORD', type: 'SECRET', secret: { type: 'REFERENCE', reference: { name: '/vault/db/password' } } };

function appTaskInfo(): TaskInfo {
  const offer = makeMesosOffer();
  const op = launchToMesos(coreAppLaunch(offerFromMesos(offer), secretApp), { frameworkId: 'F1', offer });
  const info = op.launch?.taskInfos?.[0];
  if (info === undefined) throw new Error('no task info');
  return info;
}

t.test('Mesos: an app\'s secret variable is a SECRET variable with a REFERENCE to its source', async (tt) => {
  const variables = appTaskInfo().command?.environment?.variables ?? [];
  tt.same(variables.find((v) => v.name === 'DB_PASSWORD'), SECRET_VARIABLE);
  tt.same(variables.find((v) => v.name === 'PLAIN'), { name: 'PLAIN', value: 'visible' });
  tt.same(variables.map((v) => v.name), [...variables.map((v) => v.name)].sort(), 'still sorted by name');
});

t.test('Mesos: the reference survives both wire formats (mesos.proto Environment.Variable.secret, Secret.reference)', async (tt) => {
  const info = appTaskInfo();
  const call: Call = {
    type: 'ACCEPT', frameworkId: { value: 'F1' },
    accept: { offerIds: [{ value: 'O1' }], operations: [{ type: 'LAUNCH', launch: { taskInfos: [info] } }] },
  };
  for (const format of ['protobuf', 'json'] as const) {
    const decoded = decodeCall(encodeCall(call, format), format);
    const variables = decoded.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.command?.environment?.variables ?? [];
    tt.same(variables.find((v) => v.name === 'DB_PASSWORD'), SECRET_VARIABLE, format);
  }
});

t.test('Mesos: pod-level and container secret variables, the container\'s own winning', async (tt) => {
  const pod = makePod({
    id: '/shop/cart',
    containers: [{ name: 'app', command: 'sleep 100', envSecrets: { TOKEN: 'own' } }, { name: 'side', command: 'sleep 100' }],
    envSecrets: { SHARED: 'shared', TOKEN: 'shared' },
    secrets: { shared: { source: 'team/shared' }, own: { source: 'team/app-only' } },
  });
  const offer = makeMesosOffer();
  const op = launchToMesos(corePodLaunch(offerFromMesos(offer), pod), { frameworkId: 'F1', offer });
  const secretsOf = (name: string) => Object.fromEntries((op.launchGroup?.taskGroup.tasks?.find((task) => task.name === name)?.command?.environment?.variables ?? [])
    .filter((v) => v.type === 'SECRET').map((v) => [v.name, v.secret?.reference?.name]));
  tt.same(secretsOf('app'), { SHARED: 'team/shared', TOKEN: 'team/app-only' });
  tt.same(secretsOf('side'), { SHARED: 'team/shared', TOKEN: 'team/shared' });
});

t.test('Mesos: a reference to an undeclared secret cannot be translated (the launch is refused)', async (tt) => {
  const app = makeApp({ envSecrets: { X: 'missing' }, secrets: {} });
  const offer = makeMesosOffer();
  tt.throws(() => launchToMesos(coreAppLaunch(offerFromMesos(offer), app), { frameworkId: 'F1', offer }), /environment variable X references the undeclared secret 'missing'/);
});

t.test('local: a task that needs a secret is refused with TASK_ERROR naming the secret, never started', async (tt) => {
  const f = makeFixture(tt);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, secretApp);
  f.cluster.accept(offer.offerId, [op], 0);
  const error = await f.waitStatus(task.taskId, 'TASK_ERROR');
  tt.equal(error.message, 'the local cluster cannot resolve secrets (it has no secret store); this task needs DB_PASSWORD (secret \'dbpw\')');
  tt.same(f.cluster.tasks(), [], 'nothing started');
});

t.test('local: secret volumes and pod variables are refused too; plain definitions are not', async (tt) => {
  const volumeApp = makeApp({
    container: { type: 'MESOS', volumes: [{ kind: 'secret', containerPath: 'pw', secret: 'dbpw' }], portMappings: [] }, secrets: { dbpw: { source: 'x' } },
  });
  tt.equal(runnableProblem([coreAppLaunch(offerFromMesos(makeMesosOffer()), volumeApp).task]), 'the local cluster cannot resolve secrets (it has no secret store); this task needs a volume of secret \'dbpw\'');
  const secretPod = makePod({ containers: [{ name: 'c', command: 'sleep 1' }], envSecrets: { K: 's' }, secrets: { s: { source: 'y' } } });
  tt.match(runnableProblem(corePodLaunch(offerFromMesos(makeMesosOffer()), secretPod).tasks), /this task needs K \(secret 's'\)/);
  tt.equal(runnableProblem([coreAppLaunch(offerFromMesos(makeMesosOffer()), makeApp({ cmd: 'sleep 1' })).task]), undefined);
});
