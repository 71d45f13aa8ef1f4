import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import type { RawHealthModel, RawStep, RawTaskModel } from '../scenario/raw-scenario';
import { formatDurationMs } from '../scenario/format-duration';
import { NEEDS_SCHEDULER } from '../scenario/scenario';
import type { SwarmCluster } from './swarm-cluster';
import type { SwarmDraw } from './swarm-draw';
import { residentDefinition, type SwarmResidency } from './swarm-residency';
import { defineRunSpec, type SwarmRunSpec, type WireDefinition, type WorkloadSetting } from './swarm-workload';

/** Per-seed fault rates (per virtual hour, or per run spec). */
export interface FaultRates {
  readonly partitionsPerHour: number;
  readonly agentLossesPerHour: number;
  /** Probability that a run spec's tasks get a crash model (exitAfter / failToStart) at some point. */
  readonly crashingSpecs: number;
  /** Probability that a run spec's health endpoint gets a fault model (flaky, failing, slow, status). */
  readonly unhealthySpecs: number;
  readonly commandsPerHour: number;
}

/** What the timeline generator needs. */
export interface TimelineInput {
  readonly faults: SwarmDraw;
  readonly commands: SwarmDraw;
  readonly workload: SwarmDraw;
  readonly cluster: SwarmCluster;
  readonly specs: readonly SwarmRunSpec[];
  readonly setting: WorkloadSetting;
  readonly rates: FaultRates;
  readonly durationMs: number;
  /** Commands and faults happen before this; from it on the run is quiet (undefined: no quiet period). */
  readonly quietFromMs?: number;
  /**
   * Scheduler failovers (issue 16), drawn from their own stream so that seeds without them keep
   * every other draw: how many per virtual hour, and the draw.
   */
  readonly failovers?: { readonly draw: SwarmDraw; readonly perHour: number };
  /**
   * Resident apps (swarm-residency.ts), drawn from their own stream so that seeds without them
   * keep every other draw: each of their definitions is made resident with `draw`.
   */
  readonly residency?: { readonly draw: SwarmDraw; readonly apps: ReadonlyMap<string, SwarmResidency> };
}

/** The generated timeline and what the run looks like when the quiet period begins. */
export interface SwarmTimeline {
  readonly steps: RawStep[];
  /**
   * The latest definition and declared instance count of every run spec alive at the quiet point
   * (or the end), with the definitions it had before since it was last created (`earlier`, oldest
   * first): their instances may still run when the quiet period begins (a forced scale stops a
   * rolling restart, and a scale replaces nothing).
   */
  readonly finalDefinitions: readonly FinalDefinition[];
  /** Agents alive at the end (initial and added, minus those killed). */
  readonly survivors: readonly SimAgentSpec[];
  readonly lost: readonly SimAgentSpec[];
}

/** A run spec's definition at the quiet point, and the ones it had before since its creation. */
export interface FinalDefinition {
  readonly kind: 'app' | 'pod';
  readonly definition: WireDefinition;
  readonly earlier: readonly WireDefinition[];
}

interface Timed {
  readonly atMs: number;
  readonly seq: number;
  readonly step: Omit<RawStep, 'at'>;
}

type SpecEvent =
  | { readonly atMs: number; readonly kind: 'create' | 'recreate'; readonly spec: SwarmRunSpec }
  | { readonly atMs: number; readonly kind: 'command' };

/**
 * Draws the timeline: every run spec created (most at 0s), then commands at the seed's command
 * rate (scale up/down, config changes, kills by count or agent with and without scale/wipe,
 * deletes followed by re-creation, backoff resets) against run specs that exist at that moment,
 * and faults at the seed's fault rates (partitions healed after 5 s – 5 min, agents lost, agents
 * added, crash task models and unhealthy health models, sometimes reverted). With a quiet period,
 * everything is put right when it begins: partitions healed, health and task models back to
 * healthy / runForever, backoff delays reset.
 */
export function generateTimeline(input: TimelineInput): SwarmTimeline {
  const out: Timed[] = [];
  const add = (atMs: number, step: Omit<RawStep, 'at'>) => void out.push({ atMs, seq: out.length, step });
  const activeEndMs = input.quietFromMs ?? input.durationMs;
  const models = modelSteps(input, activeEndMs, add);
  const { survivors, lost, healsAfterEnd } = faultSteps(input, activeEndMs, add);
  const final = commandSteps(input, activeEndMs, add);

  if (input.quietFromMs !== undefined) {
    const q = input.quietFromMs;
    for (const agentId of healsAfterEnd) add(q, { heal: agentId });
    for (const id of models.unhealthy) add(q, { health: { id, model: { kind: 'healthy' } } });
    for (const id of models.crashing) add(q, { taskModel: { id, model: { kind: 'runForever' } } });
    for (const id of final.keys()) add(q, { resetDelay: id });
  }
  out.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
  const kept = input.quietFromMs === undefined ? out : withKeepalives(out, input.quietFromMs, KEEPALIVE_GAP_MS);
  const steps = input.failovers === undefined ? kept : withFailovers(kept, input.failovers.draw, input.failovers.perHour, activeEndMs);
  return {
    steps: steps.map((t) => ({ at: formatDurationMs(t.atMs), ...t.step })),
    finalDefinitions: [...final.values()],
    survivors,
    lost,
  };
}

/**
 * The longest stretch without a command or fault before a quiet period. The convergence invariant
 * holds at every moment of a run ("counts at target within the bound after the last disturbance"),
 * but before the quiet period faults may still be in force (a crash loop, a failing health
 * endpoint) without any step; a step at least this often keeps the check for the quiet period.
 */
const KEEPALIVE_GAP_MS = 3 * 60_000;

/**
 * Inserts a `resetDelay` of a live run spec wherever more than `gapMs` would pass without a step
 * before `quietFromMs` (every step of a swarm timeline disturbs: there are no notes or expects).
 */
function withKeepalives(sorted: readonly Timed[], quietFromMs: number, gapMs: number): Timed[] {
  const out: Timed[] = [];
  const alive: string[] = [];
  let lastMs = 0;
  for (const t of sorted) {
    while (t.atMs - lastMs > gapMs && lastMs + gapMs < quietFromMs) {
      lastMs += gapMs;
      if (alive.length > 0) out.push({ atMs: lastMs, seq: -1, step: { resetDelay: alive[0] } });
    }
    out.push(t);
    lastMs = Math.max(lastMs, t.atMs);
    const created = t.step.app?.id ?? t.step.pod?.id;
    if (created !== undefined && !alive.includes(created)) alive.push(created);
    const deleted = t.step.delete === undefined ? -1 : alive.indexOf(t.step.delete);
    if (deleted >= 0) alive.splice(deleted, 1);
  }
  return out;
}

/** The longest downtime of a swarm failover (Marathon's default ZooKeeper session timeout is 10 s). */
const FAILOVER_DOWNTIME_MAX_MS = 60_000;

/**
 * Adds `schedulerFailover` steps at `perHour` (downtime 0–60 s, none overlapping, each over before
 * `endMs`) and moves every step that needs a leading scheduler (commands) out of the downtime, to
 * 1 ms after the takeover — as a client retries after the 503 of a pacer without a leader. Steps
 * that happen to the cluster (partitions, agents lost or added, models) stay where they were.
 */
function withFailovers(sorted: readonly Timed[], draw: SwarmDraw, perHour: number, endMs: number): Timed[] {
  const windows: { fromMs: number; untilMs: number }[] = [];
  for (let i = countFor(draw, perHour, endMs); i > 0; i--) {
    const downtimeMs = draw.int(0, FAILOVER_DOWNTIME_MAX_MS / 1000) * 1000;
    const fromMs = draw.int(1000, Math.max(1000, endMs - downtimeMs - 2));
    const untilMs = fromMs + downtimeMs;
    if (untilMs + 1 >= endMs || windows.some((w) => fromMs <= w.untilMs + 1 && w.fromMs <= untilMs + 1)) continue;
    windows.push({ fromMs, untilMs });
  }
  if (windows.length === 0) return [...sorted];
  const out: Timed[] = sorted.map((t) => {
    if (!needsScheduler(t.step)) return t;
    const inside = windows.find((w) => t.atMs >= w.fromMs && t.atMs <= w.untilMs);
    return inside === undefined ? t : { ...t, atMs: inside.untilMs + 1 };
  });
  // A failover runs after the steps already at its instant (they still reach the dying leader).
  for (const w of windows) out.push({ atMs: w.fromMs, seq: Number.MAX_SAFE_INTEGER, step: { schedulerFailover: { downtime: formatDurationMs(w.untilMs - w.fromMs) } } });
  const position = new Map(sorted.map((t, i) => [t, i]));
  return out.sort((a, b) => a.atMs - b.atMs || (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity));
}

function needsScheduler(step: Omit<RawStep, 'at'>): boolean {
  return [...NEEDS_SCHEDULER].some((type) => step[type as keyof typeof step] !== undefined);
}

function modelSteps(
  input: TimelineInput, endMs: number, add: (atMs: number, step: Omit<RawStep, 'at'>) => void,
): { unhealthy: string[]; crashing: string[] } {
  const draw = input.faults;
  const unhealthy: string[] = [];
  const crashing: string[] = [];
  for (const spec of input.specs) {
    if (draw.chance(input.rates.unhealthySpecs)) {
      unhealthy.push(spec.id);
      const at = draw.chance(0.3) ? 0 : draw.int(0, endMs - 1);
      add(at, { health: { id: spec.id, model: healthModel(draw, at, endMs) } });
      if (draw.chance(0.4)) {
        const back = draw.int(at, endMs - 1);
        add(back, { health: { id: spec.id, model: { kind: 'healthy' } } });
      }
    }
    if (draw.chance(input.rates.crashingSpecs)) {
      crashing.push(spec.id);
      const at = draw.chance(0.3) ? 0 : draw.int(0, endMs - 1);
      add(at, { taskModel: { id: spec.id, model: taskModel(draw) } });
      if (draw.chance(0.5)) add(draw.int(at, endMs - 1), { taskModel: { id: spec.id, model: { kind: 'runForever' } } });
    }
  }
  return { unhealthy, crashing };
}

function healthModel(draw: SwarmDraw, atMs: number, endMs: number): RawHealthModel {
  const kind = draw.weighted([['flaky', 3], ['failingDuring', 2], ['failingFrom', 1], ['slow', 1], ['status', 1]] as const);
  switch (kind) {
    case 'flaky':
      return { kind, p: draw.pick([0.05, 0.2, 0.5, 1]) };
    case 'failingDuring': {
      const from = draw.int(atMs, Math.max(atMs, endMs - 1));
      return { kind, from: formatDurationMs(from), to: formatDurationMs(from + draw.int(1000, 180_000)) };
    }
    case 'failingFrom':
      return { kind, from: formatDurationMs(draw.int(atMs, Math.max(atMs, endMs - 1))) };
    case 'slow':
      return { kind, latency: formatDurationMs(draw.int(100, 30_000)) };
    case 'status':
      return { kind, status: draw.pick([500, 503, 302, 399, 102, 404]) };
  }
}

function taskModel(draw: SwarmDraw): RawTaskModel {
  const min = draw.int(0, 60_000);
  const after: [string, string] = [formatDurationMs(min), formatDurationMs(min + draw.int(0, 120_000))];
  if (draw.chance(0.25)) return { kind: 'failToStart', after };
  return draw.chance(0.8) ? { kind: 'exitAfter', after } : { kind: 'exitAfter', after, state: draw.pick(['TASK_FAILED', 'TASK_FINISHED'] as const) };
}

/** How many events of a per-hour rate fall into `ms` (randomized rounding). */
function countFor(draw: SwarmDraw, perHour: number, ms: number): number {
  return Math.floor((perHour * ms) / 3_600_000 + draw.next());
}

function faultSteps(
  input: TimelineInput, endMs: number, add: (atMs: number, step: Omit<RawStep, 'at'>) => void,
): { survivors: SimAgentSpec[]; lost: SimAgentSpec[]; healsAfterEnd: string[] } {
  const draw = input.faults;
  type Fault = { atMs: number; kind: 'add'; index: number } | { atMs: number; kind: 'partition' | 'lose' };
  const faults: Fault[] = [];
  const addTimes = input.cluster.additions.map(() => draw.int(1000, endMs - 1)).sort((a, b) => a - b);
  addTimes.forEach((atMs, index) => faults.push({ atMs, kind: 'add', index }));
  for (let i = countFor(draw, input.rates.partitionsPerHour, endMs); i > 0; i--) faults.push({ atMs: draw.int(0, endMs - 1), kind: 'partition' });
  for (let i = countFor(draw, input.rates.agentLossesPerHour, endMs); i > 0; i--) faults.push({ atMs: draw.int(0, endMs - 1), kind: 'lose' });
  faults.sort((a, b) => a.atMs - b.atMs || (a.kind === 'add' ? -1 : 0) - (b.kind === 'add' ? -1 : 0));

  const agents: SimAgentSpec[] = [...input.cluster.initialAgents];
  const lost = new Set<SimAgentSpec>();
  const partitionedUntil = new Map<string, number>();
  const healsAfterEnd: string[] = [];
  for (const f of faults) {
    if (f.kind === 'add') {
      add(f.atMs, { addAgents: input.cluster.additions[f.index] });
      agents.push(...input.cluster.addedAgents[f.index]);
      continue;
    }
    const alive = agents.filter((a) => !lost.has(a));
    if (f.kind === 'lose') {
      // Keep at least two agents alive: a swarm run is about faults, not an empty cluster.
      if (alive.length <= 2) continue;
      const victim = draw.pick(alive);
      lost.add(victim);
      add(f.atMs, { killAgent: victim.agentId });
      continue;
    }
    const connected = alive.filter((a) => (partitionedUntil.get(a.agentId) ?? -1) < f.atMs);
    if (connected.length === 0) continue;
    const victim = draw.pick(connected);
    const healMs = f.atMs + draw.weighted([[draw.int(5000, 60_000), 1], [draw.int(60_000, 300_000), 1]] as const);
    partitionedUntil.set(victim.agentId, healMs);
    add(f.atMs, { partition: victim.agentId });
    if (healMs < endMs) add(healMs, { heal: victim.agentId });
    else if (!healsAfterEnd.includes(victim.agentId)) healsAfterEnd.push(victim.agentId);
  }
  return { survivors: agents.filter((a) => !lost.has(a)), lost: [...lost], healsAfterEnd };
}

function commandSteps(
  input: TimelineInput, endMs: number, add: (atMs: number, step: Omit<RawStep, 'at'>) => void,
): Map<string, FinalDefinition> {
  const draw = input.commands;
  const events: SpecEvent[] = [];
  for (const spec of input.specs) events.push({ atMs: draw.chance(0.7) ? 0 : draw.int(0, Math.floor(endMs / 2)), kind: 'create', spec });
  for (let i = countFor(draw, input.rates.commandsPerHour, endMs); i > 0; i--) events.push({ atMs: draw.int(0, endMs - 1), kind: 'command' });
  const order = (a: SpecEvent, b: SpecEvent) => a.atMs - b.atMs || (a.kind === 'command' ? 1 : 0) - (b.kind === 'command' ? 1 : 0);
  events.sort(order);

  const current = new Map<string, FinalDefinition>();
  const put = (atMs: number, spec: SwarmRunSpec) => {
    const drawn = defineRunSpec(input.workload, spec, input.setting);
    const residency = input.residency?.apps.get(spec.id);
    const definition = residency === undefined || input.residency === undefined ? drawn : residentDefinition(input.residency.draw, drawn, residency);
    const before = current.get(spec.id);
    current.set(spec.id, { kind: spec.kind, definition, earlier: before === undefined ? [] : [...before.earlier, before.definition] });
    // The swarm's operator forces its changes (as a client does after a 409): a deployment that
    // can never finish (an unsatisfiable constraint) must not block the fixes that follow.
    add(atMs, spec.kind === 'app' ? { app: definition, force: true } : { pod: definition, force: true });
  };
  const setInstances = (id: string, instances: number) => {
    const entry = current.get(id);
    if (entry === undefined) return;
    const d = entry.definition;
    const definition = entry.kind === 'app' ? { ...d, instances } : { ...d, scaling: { ...(d.scaling as object), instances } };
    current.set(id, { kind: entry.kind, definition, earlier: entry.earlier });
  };
  // Kills by agent name initial agents only (added ones exist only after their step).
  const agentIds = input.cluster.initialAgents.map((a) => a.agentId);

  while (events.length > 0) {
    const e = events.shift() as SpecEvent;
    if (e.kind !== 'command') {
      put(e.atMs, e.spec);
      continue;
    }
    const existing = input.specs.filter((s) => current.has(s.id));
    if (existing.length === 0) continue;
    const spec = draw.pick(existing);
    const id = spec.id;
    const light = input.setting.light;
    const kind = draw.weighted([['scale', 4], ['config', 3], ['kill', 3], ['killAgent', 1], ['delete', 1], ['resetDelay', 1]] as const);
    switch (kind) {
      case 'scale': {
        const instances = light ? draw.int(1, 6) : draw.int(0, 10);
        add(e.atMs, { scale: { id, instances }, force: true });
        setInstances(id, instances);
        break;
      }
      case 'config':
        put(e.atMs, spec);
        break;
      case 'kill':
      case 'killAgent': {
        const scale = draw.chance(0.3);
        const wipe = draw.chance(0.2);
        const target = kind === 'kill' ? { count: draw.int(1, 3) } : { agent: draw.pick(agentIds) };
        add(e.atMs, { kill: { id, ...target, ...(scale ? { scale } : {}), ...(wipe ? { wipe } : {}) } });
        break;
      }
      case 'delete': {
        add(e.atMs, { delete: id, force: true });
        current.delete(id);
        if (draw.chance(0.7)) {
          const atMs = Math.min(endMs, e.atMs + draw.int(0, 180_000));
          events.push({ atMs, kind: 'recreate', spec });
          events.sort(order);
        }
        break;
      }
      case 'resetDelay':
        add(e.atMs, { resetDelay: id });
        break;
    }
  }
  return current;
}
