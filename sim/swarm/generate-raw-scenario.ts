import type { RunSpec } from '../../src/scheduler/model/run-spec';
import { convertDefinition } from '../runner/convert-definitions';
import { formatDurationMs } from '../scenario/format-duration';
import type { RawScenario, RawTimings } from '../scenario/raw-scenario';
import { convergenceFeasibility } from './convergence-feasibility';
import { generateCluster } from './swarm-cluster';
import { SwarmDraw } from './swarm-draw';
import { drawResidency } from './swarm-residency';
import { type FaultRates, generateTimeline } from './swarm-timeline';
import { generateRunSpecs, type WireDefinition, type WorkloadSetting } from './swarm-workload';

/** Bound of the convergence check in runs that end quiet. */
export const SWARM_CONVERGE_WITHIN_MS = 4 * 60_000;

/** The version stamp the generator converts definitions with (any fixed instant will do). */
const CHECK_VERSION = '2026-01-01T00:00:00.000Z';

/**
 * One swarm seed as a scenario document (the YAML-shaped object `npm run sim` loads): a cluster
 * shape, a workload, fault rates and a timeline, every draw from seedrandom streams named
 * `${seed}/swarm-<part>` (run, cluster, workload, faults, commands, floor, failover, resident), so the same seed always gives
 * the same document. About half the seeds are "light": small run specs and a final quiet period of
 * 7–9 minutes in which everything is put right; when {@link convergenceFeasibility} proves that a
 * correct scheduler must then reach every target, `invariants.convergeWithin` is set. No `expect`
 * steps: the oracle is the invariant checker, run after every step.
 */
export function generateRawScenario(seed: number): RawScenario {
  const run = new SwarmDraw(seed, 'run');
  const light = run.chance(0.5);
  const durationMs = run.int(10, 30) * 60_000 + run.int(0, 59) * 1000;
  const quietMs = light ? run.int(7, 9) * 60_000 : undefined;
  const defaultRole = run.chance(0.1) ? 'prod' : '*';
  const rates: FaultRates = {
    partitionsPerHour: run.pick([0, 6, 20, 60]),
    agentLossesPerHour: run.pick([0, 3, 10]),
    crashingSpecs: run.pick([0, 0.2, 0.5]),
    unhealthySpecs: run.pick([0, 0.2, 0.5]),
    commandsPerHour: run.pick([20, 60, 180, 400]),
  };
  // Its own stream, so that seeds drawn before the floor existed keep their other draws.
  const floor = new SwarmDraw(seed, 'floor').weighted<number | undefined>([[undefined, 6], [0, 1], [0.5, 2], [1, 1]]);
  const options = {
    ...(floor === undefined ? {} : { unhealthyKillFloor: floor }),
    ...(run.chance(0.5) ? { taskKilling: true } : {}),
    ...(defaultRole === '*' ? {} : { defaultRole }),
    ...(run.chance(0.2) ? { maxInstancesPerOffer: run.pick([1, 2, 5]) } : {}),
    timings: timings(run, light),
  };

  const cluster = generateCluster(new SwarmDraw(seed, 'cluster'));
  const allAgents = [...cluster.initialAgents, ...cluster.addedAgents.flat()];
  const setting: WorkloadSetting = {
    agents: allAgents,
    defaultRole,
    gpus: allAgents.some((a) => a.resources.gpus > 0 || a.reserved.some((r) => r.gpus > 0)),
    light,
    impossibleConstraint: light ? 0 : run.pick([0, 0.1, 0.3]),
  };
  // Its own stream too: seeds without failovers keep every other draw.
  const failover = new SwarmDraw(seed, 'failover');
  const failoversPerHour = failover.pick([0, 0, 2, 6]);
  const workload = new SwarmDraw(seed, 'workload');
  const specs = generateRunSpecs(workload, setting);
  // Its own stream too: seeds without resident apps keep every other draw.
  const residencyDraw = new SwarmDraw(seed, 'resident');
  const resident = drawResidency(residencyDraw, specs, light, defaultRole);
  const timeline = generateTimeline({
    faults: new SwarmDraw(seed, 'faults'),
    commands: new SwarmDraw(seed, 'commands'),
    workload,
    cluster,
    specs,
    setting,
    rates,
    durationMs,
    ...(quietMs === undefined ? {} : { quietFromMs: durationMs - quietMs }),
    ...(failoversPerHour === 0 ? {} : { failovers: { draw: failover, perHour: failoversPerHour } }),
    ...(resident.size === 0 ? {} : { residency: { draw: residencyDraw, apps: resident } }),
  });

  let convergence = 'not checked (no quiet period at the end)';
  let convergeWithin: string | undefined;
  if (quietMs !== undefined) {
    const toSpec = (kind: 'app' | 'pod', definition: WireDefinition): RunSpec => {
      const converted = convertDefinition(kind, definition, defaultRole, CHECK_VERSION);
      if (!converted.ok) throw new Error(`swarm seed ${seed}: generated ${kind} ${definition.id} is invalid: ${JSON.stringify(converted.errors)}`);
      return converted.spec;
    };
    const finalSpecs = timeline.finalDefinitions.map((d) => toSpec(d.kind, d.definition));
    const earlier = new Map(timeline.finalDefinitions.map((d) => [d.definition.id, d.earlier.map((e) => toSpec(d.kind, e))]));
    const why = convergenceFeasibility(finalSpecs, timeline.survivors, timeline.lost, earlier);
    if (why === undefined) {
      convergeWithin = formatDurationMs(SWARM_CONVERGE_WITHIN_MS);
      convergence = `checked: within ${convergeWithin} of the quiet period from ${formatDurationMs(durationMs - quietMs)}`;
    } else {
      convergence = `not checked (${why})`;
    }
  }
  const agentCount = cluster.initialAgents.length;
  return {
    name: `swarm-${seed}`,
    description: `Generated by the swarm (npm run sim -- swarm --seeds 1 --from ${seed}). ${agentCount} agents`
      + `${cluster.additions.length > 0 ? ` (+${cluster.addedAgents.flat().length} later)` : ''}, ${specs.length} run specs`
      + ` (${specs.filter((s) => s.kind === 'pod').length} pods), ${light ? 'light' : 'heavy'} workload. Fault rates: `
      + `${rates.partitionsPerHour} partitions/h, ${rates.agentLossesPerHour} agent losses/h, crashing run specs ${rates.crashingSpecs}, `
      + `unhealthy run specs ${rates.unhealthySpecs}, ${rates.commandsPerHour} commands/h`
      + `${failoversPerHour === 0 ? '' : `, ${failoversPerHour} scheduler failovers/h`}`
      + `${resident.size === 0 ? '' : `. Resident apps: ${[...resident.keys()].join(', ')}`}. Convergence ${convergence}.`,
    seed,
    duration: formatDurationMs(durationMs),
    options,
    ...(convergeWithin === undefined ? {} : { invariants: { convergeWithin } }),
    cluster: { agents: [...cluster.groups] },
    timeline: timeline.steps,
  };
}

function timings(draw: SwarmDraw, light: boolean): RawTimings {
  const offerInterval = draw.weighted([['1s', 6], ['500ms', 1], ['2s', 1], ['5s', light ? 0 : 1]] as const);
  const agentPingTimeout = draw.weighted([[undefined, 3], ['30s', 1], ['15s', 1]] as const);
  const agentRemoval = light ? undefined : draw.weighted([[undefined, 3], ['30s', 1], ['10m', 1]] as const);
  const launch = draw.weighted([['default', 4], ['fast', 1], ['slow', 1]] as const);
  const shutdown = draw.weighted<string | [string, string] | undefined>([[undefined, 3], [['0s', '5s'], 1], ['15s', 1]]);
  return {
    ...(offerInterval === '1s' ? {} : { offerInterval }),
    ...(agentPingTimeout === undefined ? {} : { agentPingTimeout }),
    ...(agentRemoval === undefined ? {} : { agentRemoval }),
    ...(launch === 'fast' ? { staging: ['10ms', '20ms'], starting: '10ms', running: ['10ms', '50ms'] } : {}),
    ...(launch === 'slow' ? { staging: ['100ms', '1s'], starting: ['1s', '5s'], running: ['1s', '10s'] } : {}),
    ...(shutdown === undefined ? {} : { shutdown }),
  } as RawTimings;
}
