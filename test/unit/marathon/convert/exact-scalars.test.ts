import t from 'tap';
import { javaDouble } from '../../../../src/scheduler/kernel/java-double';
import { sameConfig } from '../../../../src/scheduler/model/same-config';
import { makeOffer } from '../../../builders/cluster-builders';
import { appLaunchOn, podLaunchOn } from '../../../builders/launch-builders';
import { appEcho, appErrors, convertApp, convertPod, makeAppJson, makePodJson, podEcho } from './fixtures/builders';

/**
 * The core schedules in milli-units, but a definition echoes the cpus, mem and disk its client
 * wrote (model/resources.ts ExactScalars): `"cpus": 0.0625` came back as 0.063 and `"mem": 1e-7`
 * as 0, so a client comparing what it PUT with what it GETs saw a change that was never made.
 */

const offer = makeOffer({ agent: { agentId: 'a1', hostname: 'h1' } });

t.test('an app echoes its resources as written; the core keeps milli-units', async (t) => {
  const table: [string, Record<string, number>, Record<string, number>, { cpusMilli: number; memMilli: number; diskMilli: number }, boolean][] = [
    ['whole thousandths: nothing kept beside the milli-units', { cpus: 0.5, mem: 128, disk: 1.25 }, { cpus: 0.5, mem: 128, disk: 1.25 }, { cpusMilli: 500, memMilli: 128_000, diskMilli: 1250 }, false],
    ['a sixteenth of a cpu', { cpus: 0.0625 }, { cpus: 0.0625, mem: 128, disk: 0 }, { cpusMilli: 63, memMilli: 128_000, diskMilli: 0 }, true],
    ['a tiny mem, a long disk', { cpus: 0.0011, mem: 0.0000001, disk: 1.23456789 }, { cpus: 0.0011, mem: 0.0000001, disk: 1.23456789 }, { cpusMilli: 1, memMilli: 0, diskMilli: 1235 }, true],
  ];
  for (const [name, given, echoed, milli, kept] of table) {
    const app = convertApp(makeAppJson(given));
    const json = appEcho(app);
    t.same({ cpus: json.cpus, mem: json.mem, disk: json.disk }, echoed, `${name}: echoed`);
    t.match(app.resources, milli, `${name}: scheduled in milli-units`);
    t.equal(app.exactResources !== undefined, kept, `${name}: exact values kept only when rounded`);
    // The stored record is this JSON read back (store/run-spec-record.ts): the same model again.
    t.strictSame(convertApp(json), app, `${name}: its JSON converts to the same model`);
  }
});

t.test('a pod echoes its containers\' resources and its executorResources as written', async (t) => {
  const pod = convertPod(makePodJson({ executorResources: { cpus: 0.0625, mem: 32, disk: 10 } }, { resources: { cpus: 0.0001, mem: 64.0005 } }));
  const json = podEcho(pod) as { executorResources: Record<string, number>; containers: { resources: Record<string, number> }[] };
  t.same(json.executorResources, { cpus: 0.0625, mem: 32, disk: 10 });
  t.same(json.containers[0].resources, { cpus: 0.0001, mem: 64.0005, disk: 0, gpus: 0 });
  t.match(pod.executorResources, { cpusMilli: 63, memMilli: 32_000 });
  t.match(pod.containers[0].resources, { cpusMilli: 0, memMilli: 64_001 });
  t.strictSame(convertPod(json), pod, 'its JSON converts to the same model');
  const plain = convertPod(makePodJson({}, { resources: { cpus: 0.5, mem: 64 } }));
  t.equal(plain.exactExecutorResources, undefined);
  t.equal(plain.containers[0].exactResources, undefined);
});

t.test('resourceLimits are compared with the request as written, not its thousandths', async (t) => {
  t.same(appErrors(makeAppJson({ cpus: 0.0625, resourceLimits: { cpus: 0.0625 } })), [], 'a limit equal to the request');
  t.same(appErrors(makeAppJson({ cpus: 0.0625, resourceLimits: { cpus: 0.0624 } })), [
    { path: '/resourceLimits/cpus', errors: ['resource limit must be greater than or equal to requested resource (0.0625)'] },
  ], 'below it (0.062 and 0.063 in thousandths would have judged these the other way round)');
  t.same(appErrors(makeAppJson({ cpus: 0.0625, resourceLimits: { cpus: 0.063 } })), []);
});

t.test('a change of a resource the milli-units cannot tell apart is still a config change', async (t) => {
  const a = convertApp(makeAppJson({ cpus: 0.0625 }));
  const b = convertApp(makeAppJson({ cpus: 0.0626 }));
  t.same(a.resources, b.resources);
  t.notOk(sameConfig(a, b));
  t.ok(sameConfig(a, convertApp(makeAppJson({ cpus: 0.0625, instances: 5 }))));
});

t.test('the task\'s MARATHON_*_RESOURCE_* variables carry the numbers written, as JVM doubles', async (t) => {
  const app = convertApp(makeAppJson({ cpus: 0.0625, mem: 0.0000001, disk: 12_000_000 }));
  const task = appLaunchOn(offer, app, { taskId: 't1', instanceId: 'i1', hostPorts: [], allocation: [] }).task;
  t.match(task.env, { MARATHON_APP_RESOURCE_CPUS: '0.0625', MARATHON_APP_RESOURCE_MEM: '1.0E-7', MARATHON_APP_RESOURCE_DISK: '1.2E7' });
  const plain = appLaunchOn(offer, convertApp(makeAppJson({ cpus: 0.5, mem: 128 })), { taskId: 't2', instanceId: 'i2', hostPorts: [], allocation: [] }).task;
  t.match(plain.env, { MARATHON_APP_RESOURCE_CPUS: '0.5', MARATHON_APP_RESOURCE_MEM: '128.0', MARATHON_APP_RESOURCE_DISK: '0.0' });
  const pod = convertPod(makePodJson({}, { resources: { cpus: 0.0625, mem: 64 } }));
  const group = podLaunchOn(offer, pod, { instanceId: 'p1', executorId: 'e1', allocation: [], taskIdOf: (name) => `p1.${name}`, hostPortsOf: () => [] });
  t.match(group.tasks[0].env, { MARATHON_CONTAINER_RESOURCE_CPUS: '0.0625', MARATHON_CONTAINER_RESOURCE_MEM: '64.0' });
});

t.test('javaDouble writes a number as Java\'s Double.toString does', async (t) => {
  const table: [number, string][] = [
    [0, '0.0'], [1, '1.0'], [0.5, '0.5'], [128, '128.0'], [0.001, '0.001'], [0.0625, '0.0625'], [9_999_999, '9999999.0'],
    [0.0001, '1.0E-4'], [0.0000001, '1.0E-7'], [1.5e-5, '1.5E-5'], [10_000_000, '1.0E7'], [12_345_678, '1.2345678E7'],
  ];
  for (const [n, text] of table) t.equal(javaDouble(n), text, String(n));
});
