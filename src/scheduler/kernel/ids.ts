import type { Random } from '../ports/random';

/**
 * Identifiers in Marathon 1.11's formats, built from the injected Random so that a seeded run
 * produces the same ids every time (never `crypto`).
 *
 * - instance: `<safeRunSpecId>.instance-<uuid>` (e.g. `prod_web.instance-3f1c…`)
 * - app task: `<instanceId>._app.<incarnation>`
 * - pod task: `<instanceId>.<containerName>` (`.<incarnation>` appended on relaunches)
 */
export function uuidFrom(random: Random): string {
  let hex = '';
  for (let i = 0; i < 4; i++) {
    hex += Math.floor(random.next() * 0x1_0000_0000).toString(16).padStart(8, '0');
  }
  // RFC 4122 version 4 layout: 8-4-4-4-12 with the version and variant nibbles fixed.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `/prod/web` → `prod_web`: the run spec id as Marathon writes it inside instance and task ids. */
export function safeRunSpecId(runSpecId: string): string {
  return runSpecId.replace(/^\/+/, '').replace(/\//g, '_');
}

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

/** The instance id a task id belongs to (inverse of {@link appTaskId} and {@link podTaskId}). */
export function instanceIdOfTask(taskId: string): string {
  const app = taskId.lastIndexOf('._app.');
  if (app >= 0) return taskId.slice(0, app);
  const marker = taskId.indexOf('.instance-');
  if (marker < 0) return taskId;
  const dot = taskId.indexOf('.', marker + '.instance-'.length);
  return dot < 0 ? taskId : taskId.slice(0, dot);
}
