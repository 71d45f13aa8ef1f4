import type { TaskLaunch } from '../../scheduler/model/launch';

/**
 * The container image a task asks for (an app's `container.docker.image`, a pod container's
 * `image.id`, spec 2.2), as the launcher resolved it. Undefined when the task runs a plain command
 * — the only thing the local cluster can run.
 */
export function containerImageOf(launch: TaskLaunch): string | undefined {
  const image = launch.image;
  if (image === undefined) return undefined;
  return image.id !== '' ? image.id : `(${image.kind} without id)`;
}

/** The TASK_ERROR message for a task with an image. */
export function imageRefusal(image: string): string {
  return `the local cluster runs commands only; container images are not supported: ${image}`;
}
