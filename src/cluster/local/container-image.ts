import type { TaskLaunch } from '../../scheduler/model/launch';

/**
 * The container image a task asks for, read from its run spec's wire definition: an app's
 * `container.docker.image` or `container.appc.image` (any container type), a pod container's
 * `image.id` (spec 2.2). Undefined when the task runs a plain command — the only thing the local
 * cluster can run.
 */
export function containerImageOf(launch: TaskLaunch): string | undefined {
  const definition = launch.spec.definition;
  if (launch.spec.kind === 'app') {
    const container = objectOf(definition.container);
    return imageName(objectOf(container?.docker)?.image) ?? imageName(objectOf(container?.appc)?.image);
  }
  const containers = Array.isArray(definition.containers) ? definition.containers : [];
  const container = containers.map(objectOf).find((c) => c?.name === launch.containerName);
  const image = objectOf(container?.image);
  if (image === undefined) return undefined;
  return imageName(image.id) ?? `(${typeof image.kind === 'string' ? image.kind : 'image'} without id)`;
}

/** The TASK_ERROR message for a task with an image. */
export function imageRefusal(image: string): string {
  return `the local cluster runs commands only; container images are not supported: ${image}`;
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function imageName(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
