import type { PodContainer, PodSpec } from '../model/pod';

/**
 * Where an agent-run probe of a pod container reaches the endpoint named `name` (its health check
 * or its generalized check): `port`, the endpoint's host port among the container's `hostPorts`
 * (one per endpoint with a host port, in order), or its container port when it has no host port;
 * and under container networking `containerPort`, the endpoint's port inside the container.
 * Either is undefined when the endpoint has none (or no endpoint has that name).
 */
export function podEndpointPort(
  pod: PodSpec, container: PodContainer, hostPorts: readonly number[], name: string,
): { readonly port: number | undefined; readonly containerPort: number | undefined } {
  const i = container.endpoints.filter((e) => e.hostPort !== undefined).findIndex((e) => e.name === name);
  const endpoint = container.endpoints.find((e) => e.name === name);
  return {
    port: i >= 0 ? hostPorts[i] : endpoint?.containerPort,
    containerPort: pod.networkMode === 'container' ? endpoint?.containerPort : undefined,
  };
}
