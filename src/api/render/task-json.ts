import type { ApiDeps } from '../api-deps';
import { isoTime, type CheckState } from '../../scheduler/index';
import { type Condition, isActiveCondition } from '../../scheduler/model/condition';
import type { Instance, Task } from '../../scheduler/model/instance';
import type { TaskState } from '../../scheduler/model/task-state';
import { localVolumesJson } from './local-volumes-json';

/** Options of {@link taskJson}. */
export interface TaskJsonOptions {
  /**
   * The `servicePorts` to write: the app's (`servicePortsOf` of the core's groups module, as the
   * core assigned them; computed once per app by the caller). Fact 40: only `GET /v2/tasks` fills them; app-scoped task lists
   * (`/v2/apps/{id}/tasks`, `embed=apps.tasks`) leave the default, `"servicePorts":[]`.
   */
  readonly servicePorts?: readonly number[];
}

/**
 * Marathon's task object (fact 40) for one task of an instance: `appId, id, host, slaveId, state,
 * ports, ipAddresses, servicePorts, healthCheckResults, localVolumes, role`, then `stagedAt`,
 * `startedAt`, `version` for an active task, then `region`/`zone` when the agent has a fault
 * domain, then `checkResult` when the task has a check result (`{"http":{"statusCode":200}}`,
 * `{"tcp":{"succeeded":true}}` or `{"command":{"exitCode":0}}`: the latest its cluster reported,
 * `Task.checkResult`; absent without one, as Marathon's TaskConversion leaves it out). As in Marathon, `stagedAt`, `version` and `ports` describe only active tasks: an
 * inactive (terminal) task has `ports: []` and no `stagedAt`/`startedAt`/`version`; `startedAt`
 * appears once the task has run. `host`/`slaveId` are `null` if the instance has no placement
 * (never for a launched task). `ipAddresses` are the container's, as the cluster reported them
 * when the task first ran (`[]` before, or when it gave none, as Marathon writes it);
 * `localVolumes` the persistent volumes of the instance's reservation (`[]` without one:
 * {@link localVolumesJson}).
 *
 * The object of the task's text ({@link taskText}, the one writer of a task's JSON): the answers
 * that carry objects (a kill's tasks, `embed=…tasks` through the object renderers) and the lists
 * written as text cannot differ.
 */
export function taskJson(deps: ApiDeps, instance: Instance, task: Task, options: TaskJsonOptions = {}): Record<string, unknown> {
  return JSON.parse(taskText(deps, instance, task, JSON.stringify(options.servicePorts ?? []))) as Record<string, unknown>;
}

/**
 * The JSON text of a task ({@link taskJson} describes its keys), where `servicePortsText` is
 * `JSON.stringify` of the service ports to write, for lists of every task (`GET /v2/tasks`:
 * 100,000 tasks within the 500 ms of issue 13). The task's text is
 * kept per Task object together with every input {@link taskJson} reads — the instance's app,
 * agent (host, agent id, region, zone), role, version and reservation (its volumes), the task's
 * condition, host ports, IP addresses, launch and start times, check result, and the service ports — and rendered again whenever any of them differs, so it
 * is never stale (instances and tasks are live objects the core changes in place). Health results
 * change with every probe and are not kept: they are read from the core on every call. Keep
 * {@link sameTaskInputs} in step with what {@link plainTaskText} reads.
 */
export function taskText(deps: ApiDeps, instance: Instance, task: Task, servicePortsText: string): string {
  const plain = plainTaskTextKept(instance, task, servicePortsText);
  // Without health results, the kept text itself: the same string object while nothing changed
  // (what the list's kept answer is checked against, list-body-cache.ts). Most instances have no
  // check state at all: answered without building the (empty) results (100,000 tasks per list).
  if (!hasHealthState(deps, instance)) return plain;
  const health = healthCheckResultsJson(deps, instance);
  if (health.length === 0) return plain;
  // `"healthCheckResults":[]` occurs once in the text: no JSON string can contain it (a quote
  // inside a string is escaped).
  const at = plain.indexOf(HEALTH_EMPTY) + HEALTH_EMPTY.length - 2;
  return plain.slice(0, at) + JSON.stringify(health) + plain.slice(at + 2);
}

/**
 * Whether the core holds health check state for the instance: its tasks' texts then carry results
 * read at every call ({@link taskText}), so a list that keeps texts per token of the instances
 * (list-tasks.ts, app-json.ts) cannot keep them for its app.
 */
export function hasHealthState(deps: ApiDeps, instance: Instance): boolean {
  return (deps.scheduler.healthChecks(instance.instanceId)?.length ?? 0) > 0;
}

/**
 * {@link taskText} of a task whose instance has no health check state (the caller has just looked:
 * `scheduler.healthChecks` empty or absent), without looking it up again: the kept text, rendered
 * again when an input differs. `GET /v2/tasks` reads every instance's check state once to learn
 * whether its app's piece may be kept (list-tasks.ts), and 100,000 second look-ups were a fifth of
 * the first read after a deployment.
 */
export function plainTaskTextKept(instance: Instance, task: Task, servicePortsText: string): string {
  const texts = taskTextsOf(task, servicePortsText);
  let kept = texts.get(task);
  if (kept === undefined || !sameTaskInputs(kept, instance, task, servicePortsText)) {
    kept = renderTaskText(instance, task, servicePortsText);
    texts.set(task, kept);
  }
  return kept.plain;
}

/** A task's JSON text around its `healthCheckResults` value, and the inputs it was rendered from. */
interface KeptTaskText {
  readonly runSpecId: string;
  readonly hostname: string | undefined;
  readonly agentId: string | undefined;
  readonly region: string | undefined;
  readonly zone: string | undefined;
  readonly role: string;
  readonly runSpecVersion: string;
  /** The instance's reservation object (replaced whole when it changes: `setReservation`), for `localVolumes`. */
  readonly reservation: Instance['reservation'];
  readonly condition: Task['condition'];
  readonly hostPorts: readonly number[];
  readonly ipAddresses: Task['ipAddresses'];
  readonly launchedAtMs: number;
  readonly startedAtMs: number | undefined;
  /** The task's check result object (replaced whole when it changes: instance-tracker.ts). */
  readonly checkResult: Task['checkResult'];
  readonly servicePortsText: string;
  /** The whole text with no health results (`[]`): one flat string per task, nothing else kept. */
  readonly plain: string;
}

/**
 * Kept per Task object (gone with the task), in {@link TASK_TEXT_SHARDS} weak maps chosen by a few
 * characters of the task id: one weak map of 100,000 tasks grows by rehashing all of them at once
 * (20–150 ms in one `set` at 43,691, 87,381 and 174,763 entries, measured), which fell inside one
 * status update when texts are rendered ahead (task-text-ahead.ts: loop delay, issue 11).
 *
 * Two such families: one for the app-scoped texts (`"servicePorts":[]`: `embed=apps.tasks`,
 * `/v2/apps/{id}/tasks`), one for the texts with the app's service ports (`GET /v2/tasks`). With
 * one text per task, a load balancer polling `/v2/apps?embed=apps.tasks` and another client
 * polling `/v2/tasks` made every task of an app with a service port render again at every read of
 * either list (the kept text was always the other one's).
 */
const taskTexts: readonly (readonly WeakMap<Task, KeptTaskText>[])[] = [0, 1].map(() => Array.from({ length: 128 }, () => new WeakMap<Task, KeptTaskText>()));

/** How many weak maps the kept task texts of one family are spread over. */
export const TASK_TEXT_SHARDS = taskTexts[0].length;

/** The `servicePorts` text of the app-scoped task lists (fact 40). */
const NO_SERVICE_PORTS = '[]';

/**
 * The weak map of a task's kept text: its family (app-scoped or not), then four characters before
 * the id's last seven (an app task id's instance UUID ends there).
 */
function taskTextsOf(task: Task, servicePortsText: string): WeakMap<Task, KeptTaskText> {
  const id = task.taskId;
  const n = id.length;
  const h = n < 11 ? n : id.charCodeAt(n - 8) * 29791 + id.charCodeAt(n - 9) * 961 + id.charCodeAt(n - 10) * 31 + id.charCodeAt(n - 11);
  return taskTexts[servicePortsText === NO_SERVICE_PORTS ? 0 : 1][h & (TASK_TEXT_SHARDS - 1)];
}

/** Whether a text of the task is kept and still right for it as it is now (tests of the rendering ahead). */
export function hasCurrentTaskText(instance: Instance, task: Task, servicePortsText: string): boolean {
  const kept = taskTextsOf(task, servicePortsText).get(task);
  return kept !== undefined && sameTaskInputs(kept, instance, task, servicePortsText);
}

/** Where the health results go in a kept text. */
const HEALTH_EMPTY = '"healthCheckResults":[]';

function sameTaskInputs(k: KeptTaskText, instance: Instance, task: Task, servicePortsText: string): boolean {
  const agent = instance.agent;
  return k.runSpecId === instance.runSpecId && k.hostname === agent?.hostname && k.agentId === agent?.agentId
    && k.region === agent?.region && k.zone === agent?.zone && k.role === instance.role && k.runSpecVersion === instance.runSpecVersion
    && k.reservation === instance.reservation && k.condition === task.condition && k.hostPorts === task.hostPorts && k.ipAddresses === task.ipAddresses && k.launchedAtMs === task.launchedAtMs
    && k.startedAtMs === task.startedAtMs && k.checkResult === task.checkResult && k.servicePortsText === servicePortsText;
}

function renderTaskText(instance: Instance, task: Task, servicePortsText: string): KeptTaskText {
  const agent = instance.agent;
  return {
    runSpecId: instance.runSpecId, hostname: agent?.hostname, agentId: agent?.agentId, region: agent?.region, zone: agent?.zone,
    role: instance.role, runSpecVersion: instance.runSpecVersion, reservation: instance.reservation, condition: task.condition, hostPorts: task.hostPorts,
    ipAddresses: task.ipAddresses, launchedAtMs: task.launchedAtMs, startedAtMs: task.startedAtMs, checkResult: task.checkResult,
    servicePortsText, plain: plainTaskText(instance, task, servicePortsText),
  };
}

/**
 * A task's JSON text with `"healthCheckResults":[]`, written directly (the keys in Marathon's order,
 * see {@link taskJson}), every string through `JSON.stringify` (the app id, role and version once per run
 * of equal values, an agent's host and id once per agent), the times from a formatter kept per
 * second. About three times cheaper than building the object and serializing it (the first
 * `GET /v2/tasks` of 100,000 tasks renders every one; issue 13), and one flat string (a join), not a
 * tree of concatenations the collector would walk for as long as the text is kept.
 */
function plainTaskText(instance: Instance, task: Task, servicePortsText: string): string {
  const active = isActiveCondition(task.condition);
  const agent = instance.agent;
  const out: string[] = [
    '{"appId":', jsonOf(instance.runSpecId), ',"id":', JSON.stringify(task.taskId), agentHead(agent),
    ',"state":"', taskStateOf(task.condition), '","ports":', active && task.hostPorts.length > 0 ? JSON.stringify(task.hostPorts) : '[]',
    ',"ipAddresses":', task.ipAddresses === undefined ? '[]' : ipAddressesText(task.ipAddresses), ',"servicePorts":', servicePortsText, ',"healthCheckResults":[],"localVolumes":',
    instance.reservation === undefined ? '[]' : JSON.stringify(localVolumesJson(instance)), ',"role":', jsonOf(instance.role),
  ];
  if (active) {
    out.push(',"stagedAt":"', isoText(task.launchedAtMs, 0), '"');
    if (task.startedAtMs !== undefined) out.push(',"startedAt":"', isoText(task.startedAtMs, 1), '"');
    out.push(',"version":', jsonOf(instance.runSpecVersion));
  }
  if (agent?.region !== undefined) out.push(',"region":', JSON.stringify(agent.region));
  if (agent?.zone !== undefined) out.push(',"zone":', JSON.stringify(agent.zone));
  if (task.checkResult !== undefined) out.push(',"checkResult":', checkResultText(task.checkResult));
  out.push('}');
  return out.join('');
}

/** `JSON.stringify(text)`, remembered for the last few texts (tasks come app by app: one app id, role and version for many). */
function jsonOf(text: string): string {
  for (let i = 0; i < JSON_SLOTS; i++) if (jsonKeys[i] === text) return jsonValues[i];
  jsonNext = (jsonNext + 1) % JSON_SLOTS;
  jsonKeys[jsonNext] = text;
  jsonValues[jsonNext] = JSON.stringify(text);
  return jsonValues[jsonNext];
}

const JSON_SLOTS = 4;
const jsonKeys: (string | undefined)[] = new Array<string | undefined>(JSON_SLOTS).fill(undefined);
const jsonValues: string[] = new Array<string>(JSON_SLOTS).fill('');
let jsonNext = 0;

/** `,"host":…,"slaveId":…` of an agent (null without one), kept per agent object. */
function agentHead(agent: Instance['agent']): string {
  if (agent === undefined) return ',"host":null,"slaveId":null';
  const kept = agentHeads.get(agent);
  if (kept !== undefined && kept.hostname === agent.hostname && kept.agentId === agent.agentId) return kept.text;
  const text = `,"host":${JSON.stringify(agent.hostname)},"slaveId":${JSON.stringify(agent.agentId)}`;
  agentHeads.set(agent, { hostname: agent.hostname, agentId: agent.agentId, text });
  return text;
}

const agentHeads = new WeakMap<NonNullable<Instance['agent']>, { readonly hostname: string; readonly agentId: string; readonly text: string }>();

/**
 * `isoTime(ms)`, the date and time to the second formatted once per second (the tasks of a
 * deployment are staged and start within a few seconds) and the milliseconds from a table; one
 * second kept per field (`slot` 0: stagedAt, 1: startedAt), as a task's two times differ.
 */
function isoText(ms: number, slot: 0 | 1): string {
  const second = Math.floor(ms / 1000);
  if (!Number.isInteger(ms) || ms < 0) return isoTime(ms);
  if (second !== isoSeconds[slot]) {
    const whole = isoTime(second * 1000);
    // `YYYY-MM-DDTHH:MM:SS.`; another shape (a year past 9999) is formatted whole every time.
    if (whole.length !== 24) return isoTime(ms);
    isoSeconds[slot] = second;
    isoPrefixes[slot] = whole.slice(0, 20);
  }
  return isoPrefixes[slot] + MILLIS[ms - second * 1000];
}

const isoSeconds = [Number.NaN, Number.NaN];
const isoPrefixes = ['', ''];
const MILLIS: readonly string[] = Array.from({ length: 1000 }, (_, n) => `${String(n).padStart(3, '0')}Z`);


/**
 * The tasks of an app's instances that have been launched (instances still waiting for an offer
 * have no task yet and are left out), in instance creation order; `[]` for an unknown app.
 */
export function appTasksJson(deps: ApiDeps, appId: string): Record<string, unknown>[] {
  return instancesTasksJson(deps, deps.scheduler.instances(appId));
}

/**
 * `JSON.stringify(instancesTasksJson(deps, instances))` byte for byte, from the per-task texts of
 * {@link taskText} (app-scoped: `servicePorts: []`): what keeps `GET /v2/apps/{id}` and
 * `GET /v2/apps/{id}/tasks` of an app with 100,000 instances from building and serializing
 * 100,000 objects on the loop at every call (issue 11: no request may stall everything).
 */
export function instancesTasksText(deps: ApiDeps, instances: readonly Instance[]): string {
  return `[${instancesTaskTexts(deps, instances).join(',')}]`;
}

/**
 * The app-scoped texts {@link instancesTasksText} joins, in order, in a new array the caller may
 * change: each the kept text of its task while nothing it shows changed ({@link taskText}).
 */
export function instancesTaskTexts(deps: ApiDeps, instances: readonly Instance[]): string[] {
  const out: string[] = [];
  for (const instance of instances) {
    for (const task of instance.tasks) out.push(taskText(deps, instance, task, '[]'));
  }
  return out;
}


/** The app-scoped task JSON of the launched tasks of `instances`, in the given order (see {@link appTasksJson}). */
export function instancesTasksJson(deps: ApiDeps, instances: readonly Instance[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const instance of instances) {
    for (const task of instance.tasks) out.push(taskJson(deps, instance, task));
  }
  return out;
}

/**
 * The Mesos state Marathon reports for a condition (its "state or staging" mapping): conditions
 * without a Mesos counterpart (Scheduled, Provisioned) read as TASK_STAGING.
 */
const STATE_OF: Readonly<Partial<Record<Condition, TaskState>>> = {
  Staging: 'TASK_STAGING',
  Starting: 'TASK_STARTING',
  Running: 'TASK_RUNNING',
  Killing: 'TASK_KILLING',
  Killed: 'TASK_KILLED',
  Finished: 'TASK_FINISHED',
  Failed: 'TASK_FAILED',
  Error: 'TASK_ERROR',
  Unreachable: 'TASK_UNREACHABLE',
  UnreachableInactive: 'TASK_UNREACHABLE',
  Gone: 'TASK_GONE',
  Dropped: 'TASK_DROPPED',
  Unknown: 'TASK_UNKNOWN',
};

/** The wire `state` of a task in the given condition. */
export function taskStateOf(condition: Condition): TaskState {
  return STATE_OF[condition] ?? 'TASK_STAGING';
}

/**
 * Marathon's health entries (fact 40: `{instanceId, alive, consecutiveFailures, firstSuccess?,
 * lastSuccess?, lastFailure?, lastFailureCause?}`), one per check that has produced a counted
 * result — scheduler-run probes and the agent's verdicts alike; the core keeps them.
 */
function healthCheckResultsJson(deps: ApiDeps, instance: Instance): Record<string, unknown>[] {
  const states = deps.scheduler.healthChecks(instance.instanceId) ?? [];
  const out: Record<string, unknown>[] = [];
  for (const s of states) {
    if (s.alive === undefined) continue;
    out.push(healthEntry(instance.instanceId, s));
  }
  return out;
}

function healthEntry(instanceId: string, s: Readonly<CheckState>): Record<string, unknown> {
  const entry: Record<string, unknown> = { instanceId, alive: s.alive === true, consecutiveFailures: s.consecutiveFailures };
  if (s.firstSuccessMs !== undefined) entry.firstSuccess = isoTime(s.firstSuccessMs);
  if (s.lastSuccessMs !== undefined) entry.lastSuccess = isoTime(s.lastSuccessMs);
  if (s.lastFailureMs !== undefined) entry.lastFailure = isoTime(s.lastFailureMs);
  if (s.lastFailureCause !== undefined) entry.lastFailureCause = s.lastFailureCause;
  return entry;
}

/** A task's `ipAddresses` (fact 40): `{"ipAddress","protocol"}` each, in Marathon's key order. */
function ipAddressesText(ips: NonNullable<Task['ipAddresses']>): string {
  return JSON.stringify(ips.map((ip) => ({ ipAddress: ip.ipAddress, protocol: ip.protocol })));
}

/** A task's `checkResult` (fact 40; Marathon's `check.raml` `CheckStatus`): the kind and its one value. */
function checkResultText(result: NonNullable<Task['checkResult']>): string {
  if ('http' in result) return JSON.stringify({ http: { statusCode: result.http.statusCode } });
  if ('tcp' in result) return JSON.stringify({ tcp: { succeeded: result.tcp.succeeded } });
  return JSON.stringify({ command: { exitCode: result.command.exitCode } });
}
