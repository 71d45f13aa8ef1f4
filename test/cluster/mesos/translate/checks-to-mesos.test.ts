import t from 'tap';
import { launchToMesos } from '../../../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { statusFromMesos } from '../../../../src/cluster/mesos/translate/status-from-mesos';
import { decodeCall, decodeEvent, encodeCall, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Call, CheckInfo, CheckStatusInfo, Event, TaskInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import type { AppCheck } from '../../../../src/scheduler/model/checks';
import type { CheckStatus } from '../../../../src/scheduler/model/checks';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import { makeApp, makeEndpoint, makePod, makePortMapping } from '../../../builders/run-spec-builders';
import { coreAppLaunch, corePodLaunch, makeMesosOffer, makeMesosStatus } from './mesos-builders';

/**
 * Marathon's `check` on a Mesos master: the TaskInfo's `check` (a CheckInfo, §5.5, as Marathon's
 * `MesosCheck.toMesos` builds it) for app tasks and pod container tasks, and the `check_status`
 * of UPDATE events read into the core's status input.
 */

function appTaskInfo(spec: AppSpec): { info: TaskInfo; hostPorts: readonly number[] } {
  const offer = makeMesosOffer();
  const launch = coreAppLaunch(offerFromMesos(offer), spec);
  const info = launchToMesos(launch, { frameworkId: 'F1', offer }).launch?.taskInfos?.[0];
  if (info === undefined) throw new Error('no task info');
  return { info, hostPorts: launch.task.hostPorts };
}

function podTaskInfos(spec: PodSpec): { tasks: readonly TaskInfo[]; hostPorts: readonly number[] } {
  const offer = makeMesosOffer();
  const core = corePodLaunch(offerFromMesos(offer), spec);
  return { tasks: launchToMesos(core, { frameworkId: 'F1', offer }).launchGroup?.taskGroup.tasks ?? [], hostPorts: core.tasks[0].hostPorts };
}

const DEFAULT_SECONDS = { delaySeconds: 15, intervalSeconds: 60, timeoutSeconds: 20 };

t.test('an app\'s check becomes the TaskInfo\'s check: type set, timing in seconds, the port Mesos probes', async (t) => {
  const bridge = { networks: [{ mode: 'container/bridge' as const, labels: {} }], container: { type: 'MESOS' as const, portMappings: [makePortMapping({ containerPort: 8080, hostPort: 0 })] } };
  const table: [string, Partial<AppSpec>, AppCheck | undefined, (hostPort: number) => CheckInfo | undefined][] = [
    ['none without a check', {}, undefined, () => undefined],
    ['HTTP on the host port, with its path', { hostPorts: [0] }, { http: { portIndex: 0, path: '/ready', scheme: 'HTTP' }, intervalSeconds: 5, timeoutSeconds: 2, delaySeconds: 1 },
      (p) => ({ type: 'HTTP', http: { port: p, path: '/ready' }, delaySeconds: 1, intervalSeconds: 5, timeoutSeconds: 2 })],
    ['TCP on a bridge mapping: the container port (Mesos probes inside the task\'s namespace)', bridge, { tcp: { portIndex: 0 } },
      () => ({ type: 'TCP', tcp: { port: 8080 }, ...DEFAULT_SECONDS })],
    ['TCP on a fixed port', {}, { tcp: { port: 7000 } }, () => ({ type: 'TCP', tcp: { port: 7000 }, ...DEFAULT_SECONDS })],
    ['COMMAND through the shell', {}, { exec: { command: { shell: 'test -f /tmp/ok' } } },
      () => ({ type: 'COMMAND', command: { command: { shell: true, value: 'test -f /tmp/ok' } }, ...DEFAULT_SECONDS })],
    ['COMMAND as an argv: its first word the value', {}, { exec: { command: { argv: ['/bin/test', '-f', 'x'] } } },
      () => ({ type: 'COMMAND', command: { command: { shell: false, value: '/bin/test', arguments: ['/bin/test', '-f', 'x'] } }, ...DEFAULT_SECONDS })],
  ];
  for (const [name, overrides, check, want] of table) {
    const { info, hostPorts } = appTaskInfo(makeApp({ ...overrides, ...(check === undefined ? {} : { check }) }));
    t.strictSame(info.check, want(hostPorts[0]), name);
  }
});

t.test('a pod container\'s check on each of its tasks: by endpoint, the container port under container networking', async (t) => {
  const spec = makePod({
    networkMode: 'container', networks: [{ mode: 'container', name: 'dcos', labels: {} }],
    containers: [
      { name: 'web', endpoints: [makeEndpoint({ name: 'http', hostPort: 0, containerPort: 8080 })], check: { http: { endpoint: 'http', path: '/' } } },
      { name: 'worker', check: { exec: { command: { shell: 'true' } }, intervalSeconds: 3 } },
      { name: 'quiet' },
    ],
  });
  const { tasks } = podTaskInfos(spec);
  t.strictSame(tasks[0].check, { type: 'HTTP', http: { port: 8080, path: '/' }, ...DEFAULT_SECONDS });
  t.strictSame(tasks[1].check, { type: 'COMMAND', command: { command: { shell: true, value: 'true' } }, ...DEFAULT_SECONDS, intervalSeconds: 3 });
  t.equal(tasks[2].check, undefined);
  const host = podTaskInfos(makePod({ containers: [{ name: 'web', endpoints: [makeEndpoint({ name: 'http', hostPort: 0 })], check: { tcp: { endpoint: 'http' } } }] }));
  t.strictSame(host.tasks[0].check, { type: 'TCP', tcp: { port: host.hostPorts[0] }, ...DEFAULT_SECONDS }, 'host networking: the host port');
});

t.test('check_status of an update read into the status input: each sub-message with its value, an empty one empty', async (t) => {
  const table: [string, CheckStatusInfo | undefined, CheckStatus | undefined][] = [
    ['none', undefined, undefined],
    ['http 200', { type: 'HTTP', http: { statusCode: 200 } }, { http: { statusCode: 200 } }],
    ['http without a result yet', { type: 'HTTP', http: {} }, { http: {} }],
    ['tcp false (presence, not truthiness)', { type: 'TCP', tcp: { succeeded: false } }, { tcp: { succeeded: false } }],
    ['command exit 0', { type: 'COMMAND', command: { exitCode: 0 } }, { command: { exitCode: 0 } }],
    ['type only', { type: 'COMMAND' }, {}],
  ];
  for (const [name, checkStatus, want] of table) {
    const status = statusFromMesos(makeMesosStatus('TASK_RUNNING', { reason: 'REASON_TASK_CHECK_STATUS_UPDATED', ...(checkStatus === undefined ? {} : { checkStatus }) }));
    t.strictSame(status.checkStatus, want, name);
  }
});

t.test('the codecs carry check and check_status: protobuf and JSON, as Mesos names them', async (t) => {
  const { info } = appTaskInfo(makeApp({ hostPorts: [0], check: { http: { portIndex: 0, path: '/x' } } }));
  const call: Call = { type: 'ACCEPT', frameworkId: { value: 'F1' }, accept: { offerIds: [{ value: 'O1' }], operations: [{ type: 'LAUNCH', launch: { taskInfos: [info] } }] } };
  const status: CheckStatusInfo = { type: 'TCP', tcp: { succeeded: false } };
  const event: Event = { type: 'UPDATE', update: { status: makeMesosStatus('TASK_RUNNING', { reason: 'REASON_TASK_CHECK_STATUS_UPDATED', checkStatus: status }) } };
  for (const format of ['protobuf', 'json'] as const) {
    const back = decodeCall(encodeCall(call, format), format);
    t.strictSame(back.accept?.operations?.[0].launch?.taskInfos?.[0].check, info.check, `${format}: TaskInfo.check round trip`);
    t.strictSame(decodeEvent(encodeEvent(event, format), format).update?.status.checkStatus, status, `${format}: TaskStatus.check_status round trip`);
  }
  const json = JSON.parse(Buffer.from(encodeCall(call, 'json')).toString('utf8')) as { accept: { operations: { launch: { task_infos: { check: unknown }[] } }[] } };
  t.strictSame(json.accept.operations[0].launch.task_infos[0].check,
    { type: 'HTTP', http: { port: info.check?.http?.port, path: '/x' }, delay_seconds: 15, interval_seconds: 60, timeout_seconds: 20 }, 'JSON: snake_case');
  const update = decodeEvent(Buffer.from(JSON.stringify({
    type: 'UPDATE', update: { status: { task_id: { value: 't1' }, state: 'TASK_RUNNING', check_status: { type: 'HTTP', http: { status_code: 503 } } } },
  })), 'json');
  t.strictSame(update.update?.status.checkStatus, { type: 'HTTP', http: { statusCode: 503 } }, 'a master\'s JSON UPDATE');
});
