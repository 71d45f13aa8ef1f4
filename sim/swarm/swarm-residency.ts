import type { SwarmDraw } from './swarm-draw';
import type { SwarmRunSpec, WireDefinition } from './swarm-workload';

/** A resident app of a swarm seed: its role (never `*`) and the size of its persistent volume. */
export interface SwarmResidency {
  readonly role: string;
  readonly volumeMiB: number;
}

/**
 * Which apps of a heavy seed are resident (a persistent volume, so each instance reserves its
 * resources and ports and relaunches only on that reservation): from the seed's own stream
 * (`…/swarm-resident`), so that every other draw of a seed stays as it was. Four seeds in ten of
 * the heavy ones get some; in them an app whose role may be other than `*` (under a role group,
 * or any app when the default role is not `*`) is resident with probability 0.6, in that role:
 * the group's role, which the cluster may also reserve statically on some agents, so that a
 * static reservation and resident instances' dynamic ones of one role meet on one agent. Light
 * seeds (which may check convergence) get none: a resident instance waits for its own agent.
 */
export function drawResidency(draw: SwarmDraw, specs: readonly SwarmRunSpec[], light: boolean, defaultRole: string): ReadonlyMap<string, SwarmResidency> {
  const out = new Map<string, SwarmResidency>();
  if (light || !draw.chance(0.4)) return out;
  for (const spec of specs) {
    if (spec.kind !== 'app') continue;
    const groupRole = /^\/(prod|dev)\//.exec(spec.id)?.[1];
    const role = groupRole ?? (defaultRole === '*' ? undefined : defaultRole);
    if (role === undefined || !draw.chance(0.6)) continue;
    out.set(spec.id, { role, volumeMiB: draw.pick([1, 10, 100]) });
  }
  return out;
}

/**
 * A drawn app definition made resident: in its role, with one persistent volume of the run spec's
 * fixed size (a definition's volumes stay the same across its versions; its ports, resources and
 * everything else change as drawn), and what the API requires of a resident app —
 * `acceptedResourceRoles` absent or `["*"]`, `unreachableStrategy` absent or `disabled`, an
 * `upgradeStrategy` with `maximumOverCapacity` 0 when given. Deterministic in `draw`.
 */
export function residentDefinition(draw: SwarmDraw, definition: WireDefinition, residency: SwarmResidency): WireDefinition {
  const { acceptedResourceRoles: _accepted, unreachableStrategy: _unreachable, upgradeStrategy: _upgrade, ...rest } = definition;
  return {
    ...rest,
    role: residency.role,
    ...(draw.chance(0.3) ? { acceptedResourceRoles: ['*'] } : {}),
    ...(draw.chance(0.3) ? { unreachableStrategy: 'disabled' } : {}),
    ...(draw.chance(0.3) ? { upgradeStrategy: { minimumHealthCapacity: draw.pick([0, 0.5, 1]), maximumOverCapacity: 0 } } : {}),
    container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: residency.volumeMiB } }] },
  };
}
