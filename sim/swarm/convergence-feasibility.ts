import { fieldValue, compileLaunchRequest, type LaunchRequest } from '../../src/scheduler/index';
import type { Constraint } from '../../src/scheduler/model/constraint';
import { toMilli, type PortRange, type ScalarResources } from '../../src/scheduler/model/resources';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import { constraintsHold } from '../invariants/constraints-hold';

/**
 * Slack on every resource sum: an agent must hold twice the worst case, because for a while after a
 * heal or a replacement an old instance and its successor may both hold resources.
 */
const SLACK = 2;

interface Pool {
  readonly role?: string;
  readonly scalars: ScalarResources;
  readonly ports: readonly PortRange[];
}

/**
 * Whether a scheduler that is correct must bring every run spec to its target count, whatever
 * order offers come in and instances are placed — the condition under which the swarm turns on
 * `invariants.convergeWithin` for a final quiet period (all partitions healed, health and task
 * models healthy, backoff reset). Returns undefined when convergence is guaranteed, otherwise why
 * it may not be.
 *
 * Deliberately conservative (a sufficient condition, not a necessary one), so that a convergence
 * violation always means a bug:
 * - Eligible agents of a run spec: alive, a pool its roles may use, GPUs only for GPU work, every
 *   fixed host port in a usable pool, room for one instance, and every constraint holds for an
 *   instance there alone (the independent oracle `constraintsHold`; static constraints — LIKE,
 *   UNLIKE, IS, CLUSTER with a value, and the field being present — decide it).
 * - A "good" agent can hold, in each pool, {@link SLACK} × every instance of every run spec that
 *   may use that pool there — so it always has room, however the others were placed — and its
 *   dynamic ports can never reach a fixed port (fixed ports are unique per run spec).
 * - UNIQUE / MAX_PER (and fixed host ports, one instance per agent): with n−1 instances placed,
 *   the saturated values block at most Σ ⌊(n−1)/k⌋ × (good agents per value); fewer than the good
 *   eligible agents must be blocked (or, for one such constraint, n ≤ k × its values on good agents).
 * - CLUSTER without value and GROUP_BY: alone only (no other per-value constraint, no fixed ports),
 *   every eligible agent good and no lost agent eligible; GROUP_BY N needs n ≤ values or values ≥ N.
 * - Instances of an earlier definition (`earlier`, by run spec id) may still run: a forced scale
 *   stops a rolling restart and a scale replaces nothing, and they count for the final
 *   definition's UNIQUE, MAX_PER, CLUSTER and GROUP_BY as every instance of the run spec does (as
 *   in Marathon). With such a rule, every surviving agent an earlier definition could use must be
 *   eligible for the final one (swarm seed 20163: two instances left on a `tier: silver` agent by
 *   an earlier definition pinned `tier CLUSTER` to silver, and the final `rack IS r0` has no such agent).
 */
export function convergenceFeasibility(
  specs: readonly RunSpec[],
  survivors: readonly SimAgentSpec[],
  lost: readonly SimAgentSpec[],
  earlier: ReadonlyMap<string, readonly RunSpec[]> = new Map(),
): string | undefined {
  const live = specs.filter((s) => s.instances > 0);
  const requests = new Map(live.map((s) => [s, compileLaunchRequest(s)]));
  const fixedOwners = new Map<number, string>();
  for (const [spec, req] of requests) {
    for (const p of req.hostPorts) {
      if (p === 0) continue;
      const owner = fixedOwners.get(p);
      if (owner !== undefined && owner !== spec.id) return `fixed port ${p} is used by ${owner} and ${spec.id}`;
      fixedOwners.set(p, spec.id);
    }
  }
  const eligible = new Map(live.map((s) => [s, survivors.filter((a) => eligibleOn(s, requests.get(s) as LaunchRequest, a))]));
  const good = new Set(survivors.filter((a) => agentIsGood(a, live, requests, eligible)));
  for (const spec of live) {
    const reason = earlierPlacements(spec, eligible.get(spec) ?? [], earlier.get(spec.id) ?? [], survivors)
      ?? specFeasibility(spec, requests.get(spec) as LaunchRequest, eligible.get(spec) ?? [], good, lost);
    if (reason !== undefined) return `${spec.id}: ${reason}`;
  }
  return undefined;
}

/**
 * Whether a constraint's verdict depends on where the run spec's other instances are: UNIQUE,
 * MAX_PER, GROUP_BY, and CLUSTER without a value (its value is the first instance's).
 */
function counting(c: Constraint): boolean {
  return c.operator === 'UNIQUE' || c.operator === 'MAX_PER' || c.operator === 'GROUP_BY' || clusterWithoutValue(c);
}

function clusterWithoutValue(c: Constraint): boolean {
  return c.operator === 'CLUSTER' && (c.value ?? '') === '';
}

/**
 * Why instances left by an earlier definition may keep the final one from its target: a counting
 * rule of the final definition and a surviving agent that an earlier definition may use but the
 * final one may not (undefined when there is none).
 */
function earlierPlacements(
  spec: RunSpec, eligible: readonly SimAgentSpec[], earlier: readonly RunSpec[], survivors: readonly SimAgentSpec[],
): string | undefined {
  const rule = spec.constraints.find(counting);
  if (rule === undefined) return undefined;
  for (const before of earlier) {
    const request = compileLaunchRequest(before);
    const outside = survivors.find((a) => !eligible.includes(a) && eligibleOn(before, request, a));
    if (outside !== undefined) {
      return `an earlier definition may leave instances on ${outside.agentId}, which the final one cannot use, counted by its ${rule.operator} on ${rule.field}`;
    }
  }
  return undefined;
}

function poolsOf(agent: SimAgentSpec): Pool[] {
  const scalars = (r: { cpus: number; mem: number; disk: number; gpus: number }): ScalarResources => ({
    cpusMilli: toMilli(r.cpus), memMilli: toMilli(r.mem), diskMilli: toMilli(r.disk), gpus: r.gpus,
  });
  const byRole = new Map<string, Pool>();
  for (const r of agent.reserved) {
    const prev = byRole.get(r.role);
    const add = scalars(r);
    byRole.set(r.role, {
      role: r.role,
      scalars: prev === undefined ? add : {
        cpusMilli: prev.scalars.cpusMilli + add.cpusMilli, memMilli: prev.scalars.memMilli + add.memMilli,
        diskMilli: prev.scalars.diskMilli + add.diskMilli, gpus: prev.scalars.gpus + add.gpus,
      },
      ports: [...(prev?.ports ?? []), ...r.ports],
    });
  }
  return [{ scalars: scalars(agent.resources), ports: agent.resources.ports }, ...byRole.values()];
}

function usable(pool: Pool, req: LaunchRequest): boolean {
  return pool.role === undefined ? req.acceptsUnreserved : req.acceptsReserved && pool.role === req.role;
}

function portCount(ranges: readonly PortRange[]): number {
  return ranges.reduce((n, [b, e]) => n + e - b + 1, 0);
}

function inRanges(port: number, ranges: readonly PortRange[]): boolean {
  return ranges.some(([b, e]) => port >= b && port <= e);
}

function eligibleOn(spec: RunSpec, req: LaunchRequest, agent: SimAgentSpec): boolean {
  const pools = poolsOf(agent).filter((p) => usable(p, req));
  if (pools.length === 0) return false;
  if (req.resources.gpus === 0 && pools.some((p) => p.scalars.gpus > 0)) return false;
  const sum = pools.reduce((s, p) => ({
    cpusMilli: s.cpusMilli + p.scalars.cpusMilli, memMilli: s.memMilli + p.scalars.memMilli,
    diskMilli: s.diskMilli + p.scalars.diskMilli, gpus: s.gpus + p.scalars.gpus,
  }), { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 });
  if (!fits(req.resources, 1, sum)) return false;
  if (req.hostPorts.some((p) => p !== 0 && !pools.some((pool) => inRanges(p, pool.ports)))) return false;
  if (portCount(pools.flatMap((p) => p.ports)) < req.hostPorts.length) return false;
  // The oracle skips GROUP_BY altogether; an agent without the field refuses every operator but UNLIKE.
  if (spec.constraints.some((c) => c.operator !== 'UNLIKE' && fieldValue(agent, c.field) === undefined)) return false;
  return constraintsHold(spec.constraints, [agent]) === undefined;
}

function fits(need: ScalarResources, times: number, cap: ScalarResources): boolean {
  return need.cpusMilli * times <= cap.cpusMilli && need.memMilli * times <= cap.memMilli
    && need.diskMilli * times <= cap.diskMilli && need.gpus * times <= cap.gpus;
}

function agentIsGood(
  agent: SimAgentSpec, specs: readonly RunSpec[], requests: ReadonlyMap<RunSpec, LaunchRequest>, eligible: ReadonlyMap<RunSpec, readonly SimAgentSpec[]>,
): boolean {
  const here = specs.filter((s) => eligible.get(s)?.includes(agent));
  const pools = poolsOf(agent);
  let portsHere = 0;
  for (const pool of pools) {
    const load = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
    let ports = 0;
    for (const s of here) {
      const req = requests.get(s) as LaunchRequest;
      if (!usable(pool, req)) continue;
      const n = SLACK * s.instances;
      load.cpusMilli += n * req.resources.cpusMilli;
      load.memMilli += n * req.resources.memMilli;
      load.diskMilli += n * req.resources.diskMilli;
      load.gpus += n * req.resources.gpus;
      ports += n * req.hostPorts.length;
    }
    if (!fits(load, 1, pool.scalars) || ports > portCount(pool.ports)) return false;
    portsHere += ports;
  }
  // Dynamic ports are the lowest free ones: a fixed port is safe when more ports lie below it
  // (in its pool) than all instances here could ever take.
  for (const s of here) {
    for (const p of (requests.get(s) as LaunchRequest).hostPorts) {
      if (p === 0) continue;
      const pool = pools.find((q) => inRanges(p, q.ports));
      const below = pool === undefined ? 0 : portCount(pool.ports.filter(([b]) => b < p).map(([b, e]) => [b, Math.min(e, p - 1)] as PortRange));
      if (below < portsHere) return false;
    }
  }
  return true;
}

interface PerValue {
  readonly field: string;
  /** Instances one value may hold. */
  readonly perValue: number;
}

function specFeasibility(
  spec: RunSpec, req: LaunchRequest, eligible: readonly SimAgentSpec[], good: ReadonlySet<SimAgentSpec>, lost: readonly SimAgentSpec[],
): string | undefined {
  const n = spec.instances;
  const goodHere = eligible.filter((a) => good.has(a));
  if (goodHere.length === 0) return `no eligible agent with room for everything (${eligible.length} eligible)`;
  const clusterOrGroup = spec.constraints.filter((c) => c.operator === 'GROUP_BY' || clusterWithoutValue(c));
  const perValue: PerValue[] = spec.constraints.flatMap((c: Constraint) => {
    if (c.operator === 'UNIQUE') return [{ field: c.field, perValue: 1 }];
    if (c.operator === 'MAX_PER') return [{ field: c.field, perValue: Math.max(1, Number(c.value)) }];
    return [];
  });
  if (req.fixedPortCount > 0) perValue.push({ field: '@hostname', perValue: 1 });
  if (clusterOrGroup.length > 0) {
    if (clusterOrGroup.length + perValue.length > 1) return 'CLUSTER/GROUP_BY combined with another per-value rule';
    if (goodHere.length < eligible.length) return 'CLUSTER/GROUP_BY with an eligible agent that may fill up';
    const c = clusterOrGroup[0];
    if (lost.some((a) => fieldValue(a, c.field) !== undefined && constraintsHold(spec.constraints, [a]) === undefined)) {
      return 'CLUSTER/GROUP_BY with a lost agent eligible';
    }
    if (c.operator === 'CLUSTER') return undefined;
    const values = new Set(eligible.map((a) => fieldValue(a, c.field))).size;
    const groups = c.value === undefined || c.value === '' ? 0 : Number(c.value);
    return n <= values || values >= groups ? undefined : `GROUP_BY ${c.field} ${c.value ?? ''} over ${values} values for ${n} instances`;
  }
  if (perValue.length === 0) return undefined;
  const valuesOf = (field: string) => {
    const counts = new Map<string | undefined, number>();
    for (const a of goodHere) counts.set(fieldValue(a, field), (counts.get(fieldValue(a, field)) ?? 0) + 1);
    return counts;
  };
  if (perValue.length === 1) {
    const { field, perValue: k } = perValue[0];
    if (n <= k * valuesOf(field).size) return undefined;
  }
  let blocked = 0;
  for (const { field, perValue: k } of perValue) blocked += Math.floor((n - 1) / k) * Math.max(...valuesOf(field).values());
  return blocked < goodHere.length ? undefined : `per-value rules may block all ${goodHere.length} good agents for ${n} instances`;
}
