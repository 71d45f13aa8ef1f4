import { persistentVolumesOf } from '../model/reservation';
import { compileConstraints, type CompiledConstraints } from '../constraints/compile-constraints';
import type { ScalarResources } from '../model/resources';
import { addResources } from '../model/resources';
import type { RunSpec } from '../model/run-spec';

/**
 * Everything the matcher needs about a run spec, computed once per run spec version (the
 * PreFilter step): total resources per instance, host ports, usable reservation kinds and the
 * compiled constraints. Offers are then checked against this without touching the definition.
 */
export interface LaunchRequest {
  readonly runSpecId: string;
  readonly role: string;
  /** May use unreserved (`*`) resources. */
  readonly acceptsUnreserved: boolean;
  /** May use resources reserved for `role`. */
  readonly acceptsReserved: boolean;
  /** Per instance, pod executor overhead included. */
  readonly resources: ScalarResources;
  /** All host ports of an instance, in task/endpoint order: 0 = any, N = exactly N. */
  readonly hostPorts: readonly number[];
  readonly fixedPortCount: number;
  readonly constraints: CompiledConstraints;
}

/** Builds the launch request of a run spec (`acceptedResourceRoles` rules of spec 2.7). */
export function compileLaunchRequest(spec: RunSpec): LaunchRequest {
  const accepted = spec.acceptedResourceRoles;
  // Empty = Marathon's default behaviour `any`: unreserved and the role's reservations.
  const acceptsUnreserved = accepted.length === 0 || accepted.includes('*');
  // A resident run spec reserves unreserved resources for itself (RESERVE takes only unreserved).
  const acceptsReserved = !spec.resident && spec.role !== '*' && (accepted.length === 0 || accepted.includes(spec.role));
  const hostPorts = spec.kind === 'app' ? spec.hostPorts : podHostPorts(spec);
  return {
    runSpecId: spec.id,
    role: spec.role,
    acceptsUnreserved,
    acceptsReserved,
    resources: withVolumes(spec.kind === 'app' ? spec.resources : podResources(spec), spec),
    hostPorts,
    fixedPortCount: hostPorts.filter((p) => p !== 0).length,
    constraints: compileConstraints(spec.constraints),
  };
}

/** A resident instance reserves its persistent volumes' disk too (they are created on its reservation). */
function withVolumes(resources: ScalarResources, spec: RunSpec): ScalarResources {
  if (!spec.resident) return resources;
  const volumes = persistentVolumesOf(spec);
  let diskMilli = resources.diskMilli;
  for (const v of volumes) diskMilli += v.diskMilli;
  return { ...resources, diskMilli };
}

function podResources(spec: Extract<RunSpec, { kind: 'pod' }>): ScalarResources {
  let total = spec.executorResources;
  for (const c of spec.containers) total = addResources(total, c.resources);
  return total;
}

function podHostPorts(spec: Extract<RunSpec, { kind: 'pod' }>): number[] {
  const ports: number[] = [];
  for (const c of spec.containers) {
    for (const e of c.endpoints) if (e.hostPort !== undefined) ports.push(e.hostPort);
  }
  return ports;
}
