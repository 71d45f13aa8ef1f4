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
  // Four 32-bit draws, written big-endian as 16 bytes through a hex table (no per-call
  // formatting), with the RFC 4122 version-4 and variant bits set.
  const a = (random.next() * 0x1_0000_0000) >>> 0;
  const b = (random.next() * 0x1_0000_0000) >>> 0;
  const c = (random.next() * 0x1_0000_0000) >>> 0;
  const d = (random.next() * 0x1_0000_0000) >>> 0;
  return `${HEX[a >>> 24]}${HEX[(a >>> 16) & 0xff]}${HEX[(a >>> 8) & 0xff]}${HEX[a & 0xff]}-`
    + `${HEX[b >>> 24]}${HEX[(b >>> 16) & 0xff]}-${HEX[((b >>> 8) & 0x0f) | 0x40]}${HEX[b & 0xff]}-`
    + `${HEX[((c >>> 24) & 0x3f) | 0x80]}${HEX[(c >>> 16) & 0xff]}-${HEX[(c >>> 8) & 0xff]}${HEX[c & 0xff]}`
    + `${HEX[d >>> 24]}${HEX[(d >>> 16) & 0xff]}${HEX[(d >>> 8) & 0xff]}${HEX[d & 0xff]}`;
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** `/prod/web` → `prod_web`: the run spec id as Marathon writes it inside instance and task ids. */
export function safeRunSpecId(runSpecId: string): string {
  if (runSpecId !== lastRunSpecId) {
    lastRunSpecId = runSpecId;
    lastSafeId = runSpecId.replace(/^\/+/, '').replace(/\//g, '_');
  }
  return lastSafeId;
}

// Instances are created in runs for one run spec: remember the last conversion.
let lastRunSpecId = '';
let lastSafeId = '';

/** A new instance id for `runSpecId`. */
export function newInstanceId(runSpecId: string, random: Random): string {
  return `${safeRunSpecId(runSpecId)}.instance-${uuidFrom(random)}`;
}

/** Task id of an app instance's single task for the given launch incarnation (1, 2, …). */
export function appTaskId(instanceId: string, incarnation: number): string {
  return `${instanceId}._app.${incarnation}`;
}

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
