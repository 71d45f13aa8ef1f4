import type { Random } from '../ports/random';

/**
 * Identifiers in Marathon 1.11's formats, built from the injected Random so that a seeded run
 * produces the same ids every time (never `crypto`).
 *
 * - instance: `<safeRunSpecId>.instance-<uuid>` (e.g. `prod_web.instance-3f1c…`)
 * - app task: `<instanceId>._app.<incarnation>`
 * - pod task: `<instanceId>.<containerName>.<incarnation>` (pacer before 2026-11-30 wrote
 *   `<instanceId>.<containerName>` for the first launch; such stored ids are still recognised,
 *   see {@link instanceIdOfTask})
 * - pod executor: `instance-<instanceId>` (`.<incarnation>` appended on relaunches)
 */
export function uuidFrom(random: Random): string {
  writeUuid(random, UUID_CODES, 0);
  return String.fromCharCode.apply(null, UUID_CODES);
}

/**
 * Writes the next uuid's 36 character codes into `codes` from index `at`: four 32-bit draws,
 * written big-endian as 16 bytes, with the RFC 4122 version-4 and variant bits set. The ids are
 * made from these codes in one `String.fromCharCode`, which gives one flat string; a template
 * literal of its 20 pieces left a tree of ~18 cons strings per id (560 bytes per instance, half
 * the heap of a million placed instances, copied by every GC). The arrays written are never
 * resized (each has exactly the length of its ids), so writing an id costs no length change.
 */
function writeUuid(random: Random, codes: number[], at: number): void {
  const a = (random.next() * 0x1_0000_0000) >>> 0;
  const b = (random.next() * 0x1_0000_0000) >>> 0;
  const c = (random.next() * 0x1_0000_0000) >>> 0;
  const d = (random.next() * 0x1_0000_0000) >>> 0;
  let n = hexWord(codes, a, at);
  codes[n++] = DASH;
  n = hexByte(codes, b >>> 24, n);
  n = hexByte(codes, (b >>> 16) & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(codes, ((b >>> 8) & 0x0f) | 0x40, n);
  n = hexByte(codes, b & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(codes, ((c >>> 24) & 0x3f) | 0x80, n);
  n = hexByte(codes, (c >>> 16) & 0xff, n);
  codes[n++] = DASH;
  n = hexByte(codes, (c >>> 8) & 0xff, n);
  n = hexByte(codes, c & 0xff, n);
  hexWord(codes, d, n);
}

function hexWord(codes: number[], word: number, at: number): number {
  codes[at] = HEX_DIGIT[word >>> 28];
  codes[at + 1] = HEX_DIGIT[(word >>> 24) & 0x0f];
  codes[at + 2] = HEX_DIGIT[(word >>> 20) & 0x0f];
  codes[at + 3] = HEX_DIGIT[(word >>> 16) & 0x0f];
  codes[at + 4] = HEX_DIGIT[(word >>> 12) & 0x0f];
  codes[at + 5] = HEX_DIGIT[(word >>> 8) & 0x0f];
  codes[at + 6] = HEX_DIGIT[(word >>> 4) & 0x0f];
  codes[at + 7] = HEX_DIGIT[word & 0x0f];
  return at + 8;
}

function hexByte(codes: number[], byte: number, at: number): number {
  codes[at] = HEX_DIGIT[byte >>> 4];
  codes[at + 1] = HEX_DIGIT[byte & 0x0f];
  return at + 2;
}

const UUID_LENGTH = 36;
/** Character codes of the uuid being written by {@link uuidFrom} (reused: ids are written one at a time, synchronously). */
const UUID_CODES: number[] = new Array<number>(UUID_LENGTH).fill(0);
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
    const prefix = Array.from(`${safeRunSpecId(runSpecId)}.instance-`, (ch) => ch.charCodeAt(0));
    lastPrefixLength = prefix.length;
    lastCodes = [...prefix, ...UUID_CODES];
  }
  writeUuid(random, lastCodes, lastPrefixLength);
  return String.fromCharCode.apply(null, lastCodes);
}

// Instances are created in runs for one run spec: the last run spec's codes keep its prefix, and
// only the uuid after it is written for each id.
let lastRunSpecId = '';
let lastPrefixLength = 0;
let lastCodes: number[] = [];

/** Task id of an app instance's single task for the given launch incarnation (1, 2, …). */
export function appTaskId(instanceId: string, incarnation: number): string {
  // One concatenation with a shared suffix: a million task ids each keep one cons string over
  // their instance id (32 bytes) rather than two.
  return instanceId + (incarnation < APP_SUFFIXES.length ? APP_SUFFIXES[incarnation] : `._app.${incarnation}`);
}

const APP_SUFFIXES: readonly string[] = Array.from({ length: 64 }, (_, i) => `._app.${i}`);

/**
 * Task id of a pod container's task for one launch incarnation (1, 2, …):
 * `<instanceId>.<containerName>.<incarnation>`, the first launch included, as Marathon 1.11 makes
 * it (core/task/Task.scala: `Task.Id(instanceId, container)` is a `TaskIdWithIncarnation` with
 * incarnation 1; MesosAppIntegrationTest.scala:479 parses both launches' ids as such). Older
 * pacer versions wrote the first launch without `.1`; nothing rebuilds a stored task's id from
 * this function (tasks keep the id they were launched with, and ids are looked up through
 * {@link instanceIdOfTask}), so those ids stay valid after an upgrade, as Marathon still parses
 * its own older `EphemeralTaskId` form.
 */
export function podTaskId(instanceId: string, containerName: string, incarnation: number): string {
  return `${instanceId}.${containerName}.${incarnation}`;
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
