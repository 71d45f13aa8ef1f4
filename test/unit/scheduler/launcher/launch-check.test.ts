import t from 'tap';
import type { AppCheck, PodCheck } from '../../../../src/scheduler/model/checks';
import type { LaunchCheck } from '../../../../src/scheduler/model/launch';
import type { Offer } from '../../../../src/scheduler/model/offer';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import { makeOffer } from '../../../builders/cluster-builders';
import { appLaunchOn, podLaunchOn } from '../../../builders/launch-builders';
import { makeApp, makeEndpoint, makePod, makePortMapping } from '../../../builders/run-spec-builders';

/**
 * The core resolves an app's and a pod container's `check` into the task's launch
 * (launcher/launch-check.ts), as Marathon's TaskBuilder does (`MesosCheck.toMesos` of the task's
 * port assignments), so that no driver reads the run spec.
 */

const offer: Offer = makeOffer({ agent: { agentId: 'a1', hostname: 'h1' } });
const BRIDGE = [{ mode: 'container/bridge' as const, labels: {} }];
const DEFAULT_TIMING = { delayMs: 15_000, intervalMs: 60_000, timeoutMs: 20_000 };
const HOST_DEFS = [{ port: 10_000, protocol: 'tcp', labels: {} }, { port: 10_001, protocol: 'tcp', labels: {} }];

function appCheckOf(app: AppSpec, hostPorts: number[]): LaunchCheck | undefined {
  return appLaunchOn(offer, app, { taskId: 't1', instanceId: 'i1', hostPorts, allocation: [] }).task.check;
}

t.test('an app\'s check resolved against the task\'s ports, with Marathon\'s default timing', async (t) => {
  const bridge = { type: 'MESOS' as const, portMappings: [makePortMapping({ containerPort: 80, hostPort: 0 }), makePortMapping({ containerPort: 9000 })] };
  const table: [string, Partial<AppSpec>, AppCheck | undefined, number[], LaunchCheck | undefined][] = [
    ['no check', {}, undefined, [31_000], undefined],
    ['http by portIndex (host networking: the host port)', { portDefinitions: HOST_DEFS, hostPorts: [0, 0] }, { http: { portIndex: 1, path: '/ping' } }, [31_000, 31_001],
      { ...DEFAULT_TIMING, kind: 'http', port: 31_001, path: '/ping' }],
    ['http without port or index: index 0, no path', { portDefinitions: HOST_DEFS, hostPorts: [0, 0] }, { http: {} }, [31_000, 31_001],
      { ...DEFAULT_TIMING, kind: 'http', port: 31_000 }],
    ['tcp by a fixed port, own timing', { portDefinitions: HOST_DEFS, hostPorts: [0, 0] }, { tcp: { port: 7000 }, intervalSeconds: 5, timeoutSeconds: 2, delaySeconds: 0 }, [31_000, 31_001],
      { delayMs: 0, intervalMs: 5000, timeoutMs: 2000, kind: 'tcp', port: 7000 }],
    ['tcp on a bridge mapping: the host port and the container port', { networks: BRIDGE, container: bridge }, { tcp: { portIndex: 0 } }, [31_000],
      { ...DEFAULT_TIMING, kind: 'tcp', port: 31_000, containerPort: 80 }],
    ['http on a mapping without a host port: its container port', { networks: BRIDGE, container: bridge }, { http: { portIndex: 1 } }, [31_000],
      { ...DEFAULT_TIMING, kind: 'http', port: 9000, containerPort: 9000 }],
    ['an index that addresses no port: no check (Marathon sends none)', { portDefinitions: HOST_DEFS, hostPorts: [0, 0] }, { tcp: { portIndex: 5 } }, [31_000, 31_001], undefined],
    ['a shell command', {}, { exec: { command: { shell: 'test -f ready' } } }, [], { ...DEFAULT_TIMING, kind: 'command', command: { shell: 'test -f ready' } }],
    ['an argv command', {}, { exec: { command: { argv: ['/bin/true', 'x'] } } }, [], { ...DEFAULT_TIMING, kind: 'command', command: { argv: ['/bin/true', 'x'] } }],
  ];
  for (const [name, overrides, check, hostPorts, want] of table) {
    const app = makeApp({ id: '/c', ...overrides, ...(check === undefined ? {} : { check }) });
    t.same(appCheckOf(app, hostPorts), want, name);
  }
});

t.test('an app task without host ports gets the check resolved once for the app, the same for every launch', async (t) => {
  const app = makeApp({ id: '/c', check: { exec: { command: { shell: 'true' } } } });
  const a = appCheckOf(app, []);
  t.ok(a !== undefined);
  t.equal(appCheckOf(app, []), a);
});

t.test('a pod container\'s check resolved by endpoint, as its agent-run health check', async (t) => {
  const table: [string, boolean, PodCheck, LaunchCheck | undefined][] = [
    ['http on an endpoint with a host port (host networking)', false, { http: { endpoint: 'web', path: '/ok' } }, { ...DEFAULT_TIMING, kind: 'http', port: 31_000, path: '/ok' }],
    ['tcp on it under container networking: its container port beside', true, { tcp: { endpoint: 'web' } }, { ...DEFAULT_TIMING, kind: 'tcp', port: 31_000, containerPort: 8080 }],
    ['an endpoint without a host port: its container port', true, { tcp: { endpoint: 'admin' } }, { ...DEFAULT_TIMING, kind: 'tcp', port: 9000, containerPort: 9000 }],
    ['an unknown endpoint: no check', false, { tcp: { endpoint: 'nope' } }, undefined],
    ['a command', false, { exec: { command: { shell: 'true' } }, intervalSeconds: 1 }, { ...DEFAULT_TIMING, intervalMs: 1000, kind: 'command', command: { shell: 'true' } }],
  ];
  for (const [name, containerNet, check, want] of table) {
    const pod = makePod({
      id: '/p',
      ...(containerNet ? { networks: [{ mode: 'container' as const, name: 'n', labels: {} }], networkMode: 'container' as const } : {}),
      containers: [{
        name: 'main', check,
        endpoints: [makeEndpoint({ name: 'web', hostPort: 0, containerPort: 8080 }), makeEndpoint({ name: 'admin', containerPort: 9000 })],
      }],
    });
    const op = podLaunchOn(offer, pod, { instanceId: 'i1', executorId: 'e1', allocation: [], taskIdOf: (n) => `i1.${n}`, hostPortsOf: () => [31_000] });
    t.same(op.tasks[0].check, want, name);
  }
});
