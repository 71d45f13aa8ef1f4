import type { Random } from '../ports/random';

/**
 * Identifiers in Marathon 1.11's formats, built from the injected Random so that a seeded run
 * produces the same ids every time (never `crypto`).
 *
 * - instance: `<safeRunSpecId>.instance-<uuid>` (e.g. `prod_web.instance-3f1c…`)
 * - app task: `<instanceId>._app.<incarnation>`
 * - pod task: `<instanceId>.<containerName>` (`.<incarnation>` appended on relaunches)
 * - pod executor: `instance-<instanceId>` (`.<incarnation>` appended on relaunches)
 */
export function uuidFrom(random: Random): string {
  return String.fromCharCode.apply(null, writeUuid(random, 0));
}

/**
 * Writes the next uuid's 36 character codes into {@link codes} from index `at` and truncates it
 * there: four 32-bit draws, written big-endian as 16 bytes, with the RFC 4122 version-4 and
 * variant bits set. The ids are made from these codes in one `String.fromCharCode`, which gives
 * one flat string; a template literal of its 20 pieces left a tree of ~18 cons strings per id
 * (560 bytes per instance, half the heap of a million placed instances, copied by every GC).
 */
function writeUuid(random: Random, at: number): number[] {
  const a = (random.next() * 0x1_0000_0000) >>> 0;
  const b = (random.next() * 0x1_0000_0000) >>> 0;
  const c = (random.next() * 0x1_0000_0000) >>> 0;
  const d = (random.next() * 0x1_0000_0000) >>> 0;
  let n = at;
  n = hexByte(a >>> 24, n);
  n = hexByte((a >>> 16) & 0xff, n);
  n = hexByte((a >>> 8) & 0xff, n);
  n = hexByte(a & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(b >>> 24, n);
  n = hexByte((b >>> 16) & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(((b >>> 8) & 0x0f) | 0x40, n);
  n = hexByte(b & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(((c >>> 24) & 0x3f) | 0x80, n);
  n = hexByte((c >>> 16) & 0xff, n);
  codes[n++] = DASH;
  n = hexByte((c >>> 8) & 0xff, n);
  n = hexByte(c & 0xff, n);
  n = hexByte(d >>> 24, n);
  n = hexByte((d >>> 16) & 0xff, n);
  n = hexByte((d >>> 8) & 0xff, n);
  n = hexByte(d & 0xff, n);
  codes.length = n;
  return codes;
}

function hexByte(byte: number, at: number): number {
  codes[at] = HEX_DIGIT[byte >>> 4];
  codes[at + 1] = HEX_DIGIT[byte & 0x0f];
  return at + 2;
}

/** Character codes of the id being written (reused: ids are written one at a time, synchronously). */
const codes: number[] = [];
const HEX_DIGIT: readonly number[] = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
const DASH = 0x2d;

/** `/prod/web` → `prod_web`: the run spec id as Marathon writes it inside instance and task ids. */
export function safeRunSpecId(runSpecId: string): string {
  return runSpecId.replace(/^\/+/, '').replace(/\//g, '_');
}

/** A new instance id for `runSpecId`: one flat string (see {@link writeUuid}). */
export function newInstanceId(runSpecId: string, random: Random): string {
  if (runSpecId !== lastRunSpecId) {
    lastRunSpecId = runSpecId;
    lastPrefix = Array.from(`${safeRunSpecId(runSpecId)}.instance-`, (ch) => ch.charCodeAt(0));
  }
  for (let i = 0; i < lastPrefix.length; i++) codes[i] = lastPrefix[i];
  return String.fromCharCode.apply(null, writeUuid(random, lastPrefix.length));
}

// Instances are created in runs for one run spec: remember the last prefix.
let lastRunSpecId = '';
let lastPrefix: readonly number[] = [];

/** Task id of an app instance's single task for the given launch incarnation (1, 2, …). */
export function appTaskId(instanceId: string, incarnation: number): string {
  // One concatenation with a shared suffix: a million task ids each keep one cons string over
  // their instance id (32 bytes) rather than two.
  return instanceId + (incarnation < APP_SUFFIXES.length ? APP_SUFFIXES[incarnation] : `._app.${incarnation}`);
}

const APP_SUFFIXES: readonly string[] = Array.from({ length: 64 }, (_, i) => `._app.${i}`);

/** Task id of a pod container's task within an instance; relaunches (incarnation > 1) append the incarnation. */
export function podTaskId(instanceId: string, containerName: string, incarnation: number): string {
  return incarnation <= 1 ? `${instanceId}.${containerName}` : `${instanceId}.${containerName}.${incarnation}`;
}

/**
 * The executor id of a pod instance's task group for one launch incarnation: `instance-<instanceId>`
 * for the first launch, `.<incarnation>` appended on relaunches — a fresh executor per launch.
 *
 * Marathon 1.11 keeps one executor id per instance (`Instance.Id.executorIdString`,
 * core/instance/Instance.scala; used by mesos/TaskGroupBuilder.scala) and relaunches a failed pod
 * instance with it. A real Mesos agent refuses that while the old default executor is still
 * shutting down (src/slave/slave.cpp `Slave::__run`: TASK_DROPPED "Master wants to launch
 * executor, but one already exists", or the group is queued for the dying executor and fails),
 * so the first relaunch of every pod instance failed (issue 15.1). A new id per incarnation never
 * meets the old executor, and needs no wait for its termination.
 */
export function podExecutorId(instanceId: string, incarnation: number): string {
  return incarnation <= 1 ? `instance-${instanceId}` : `instance-${instanceId}.${incarnation}`;
}

/** The instance id a task id belongs to (inverse of {@link appTaskId} and {@link podTaskId}). */
export function instanceIdOfTask(taskId: string): string {
  const app = taskId.lastIndexOf('._app.');
  if (app >= 0) return taskId.slice(0, app);
  const marker = taskId.indexOf('.instance-');
  if (marker < 0) return taskId;
  const dot = taskId.indexOf('.', marker + '.instance-'.length);
  return dot < 0 ? taskId : taskId.slice(0, dot);
}
