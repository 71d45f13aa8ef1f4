import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import { ConversionContext } from '../scenario/conversion-context';
import { expandAgentGroup } from '../scenario/expand-agent-group';
import type { RawAgentGroup, RawAttributeValue } from '../scenario/raw-scenario';
import type { SwarmDraw } from './swarm-draw';

/** Limits of the generated cluster (issue: 3–40 agents over 1–3 regions and 1–4 zones). */
export const CLUSTER_LIMITS = { agentsMin: 3, agentsMax: 40, regionsMax: 3, zonesMax: 4, groupsMax: 4, additionsMax: 3 } as const;

/** Roles a generated run spec may run as (besides `*`); ids of such run specs live under `/<role>/`. */
export const SWARM_ROLES = ['prod', 'dev'] as const;

/** A generated cluster: the initial agent groups, groups that join later, and every agent expanded. */
export interface SwarmCluster {
  /** `cluster.agents` of the scenario. */
  readonly groups: readonly RawAgentGroup[];
  /** Payloads of later `addAgents` steps, in the order the timeline adds them. */
  readonly additions: readonly RawAgentGroup[];
  readonly initialAgents: readonly SimAgentSpec[];
  /** The agents of each addition (same order as `additions`). */
  readonly addedAgents: readonly (readonly SimAgentSpec[])[];
  /** The zones of each region, for fault-domain constraints. */
  readonly zonesByRegion: ReadonlyMap<string, readonly string[]>;
}

const REGION_NAMES = ['us-east', 'eu-west', 'ap-south'];
const CPUS = [1, 2, 4, 8, 16];
const MEM = [1024, 2048, 4096, 8192, 16384, 32768];
const DISK = [0, 1000, 10_000, 100_000];
const PORTS = ['31000-32000', '31000-31100', '9000-9100,31000-31200', '30000-30040', '8000-8100,31000-32000'];
const SCALARS = [0.5, 1, 1.5, 2.25, 3.125, 2.0005, 0.0015];
const SETS = [['ssd'], ['hdd'], ['ssd', 'nvme'], ['hdd', 'ssd']];
const RANGES = ['1-5', '1-5,7-9', '10-20'];
const TIERS = ['gold', 'silver', 'bronze'];

/**
 * Draws a cluster shape: 3–40 agents in 1–4 groups over 1–3 regions and 1–4 zones, resources of
 * every kind (sometimes GPUs), sometimes a static reservation for a role, and attributes of all
 * four types (text with `{n}` templates, scalar, set, ranges); some groups lack some attributes or
 * the fault domain, so constraints meet agents without the field. Also 0–3 groups that join later.
 * Agents are expanded with the loader's own code, so ids and attributes are exactly what the
 * runner will see.
 */
export function generateCluster(draw: SwarmDraw): SwarmCluster {
  const regionCount = draw.int(1, CLUSTER_LIMITS.regionsMax);
  const regions = REGION_NAMES.slice(0, regionCount);
  const zoneCount = draw.int(regionCount === 1 ? 1 : regionCount, CLUSTER_LIMITS.zonesMax);
  const zonesByRegion = new Map<string, string[]>(regions.map((r) => [r, []]));
  for (let z = 0; z < zoneCount; z++) {
    const region = regions[z % regionCount];
    zonesByRegion.get(region)?.push(`${region}-${String.fromCharCode(97 + z)}`);
  }
  const total = draw.int(CLUSTER_LIMITS.agentsMin, CLUSTER_LIMITS.agentsMax);
  const groupCount = Math.min(total, draw.int(1, CLUSTER_LIMITS.groupsMax));
  const counts = splitCount(draw, total, groupCount);
  const prefixes = ['agent', 'node', 'big', 'edge'];
  const groups = counts.map((count, g) => group(draw, count, g === 0 || draw.chance(0.5) ? 'agent' : prefixes[g], regions, zonesByRegion));

  const context = new ConversionContext([]);
  const initialAgents = groups.flatMap((raw, i) => expandAgentGroup(context, `/cluster/agents/${i}`, raw));
  const additions: RawAgentGroup[] = [];
  const addedAgents: SimAgentSpec[][] = [];
  const additionCount = draw.int(0, CLUSTER_LIMITS.additionsMax);
  for (let k = 0; k < additionCount; k++) {
    const remaining = CLUSTER_LIMITS.agentsMax - initialAgents.length - addedAgents.flat().length;
    if (remaining <= 0) break;
    const prefix = draw.chance(0.5) ? 'agent' : `late${k + 1}`;
    const raw = group(draw, Math.min(remaining, draw.int(1, 3)), prefix, regions, zonesByRegion);
    additions.push(raw);
    addedAgents.push(expandAgentGroup(context, `/addAgents/${k}`, raw));
  }
  if (context.problems.length > 0) throw new Error(`swarm cluster: ${JSON.stringify(context.problems)}`);
  return { groups, additions, initialAgents, addedAgents, zonesByRegion };
}

/** `total` split into `parts` positive counts. */
function splitCount(draw: SwarmDraw, total: number, parts: number): number[] {
  const counts = new Array<number>(parts).fill(1);
  for (let i = parts; i < total; i++) counts[draw.int(0, parts - 1)]++;
  return counts;
}

function group(
  draw: SwarmDraw, count: number, idPrefix: string, regions: readonly string[], zonesByRegion: ReadonlyMap<string, readonly string[]>,
): RawAgentGroup {
  const region = draw.pick(regions);
  const regionZones = zonesByRegion.get(region) ?? [];
  const faultDomain = draw.chance(0.9);
  const zones = draw.sample(regionZones, draw.int(1, regionZones.length));
  const gpus = draw.chance(0.08) ? draw.int(1, 4) : 0;
  const resources = {
    cpus: draw.pick(CPUS), mem: draw.pick(MEM), disk: draw.pick(DISK), ...(gpus > 0 ? { gpus } : {}), ports: draw.pick(PORTS),
  };
  const reserved = draw.chance(0.3)
    ? [{ role: draw.pick(SWARM_ROLES), cpus: draw.pick([0.5, 1, 2, 4]), mem: draw.pick([512, 1024, 4096]), ...(draw.chance(0.5) ? { ports: '33000-33100' } : {}) }]
    : undefined;
  const attributes: Record<string, RawAttributeValue> = {};
  if (draw.chance(0.8)) attributes.rack = draw.chance(0.7) ? `r{n%${draw.int(2, 4)}}` : 'rack-{n}';
  if (draw.chance(0.6)) attributes.tier = draw.pick(TIERS);
  if (draw.chance(0.5)) attributes.weight = draw.pick(SCALARS);
  if (draw.chance(0.5)) attributes.disks = { set: draw.pick(SETS) };
  if (draw.chance(0.4)) attributes.slots = { ranges: draw.pick(RANGES) };
  return {
    count,
    idPrefix,
    ...(faultDomain ? { region, zones } : {}),
    resources,
    ...(reserved === undefined ? {} : { reserved }),
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
  };
}
