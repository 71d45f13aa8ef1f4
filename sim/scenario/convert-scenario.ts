import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS, type SimTimings } from '../cluster/sim-models';
import { absoluteRunSpecId, ConversionContext } from './conversion-context';
import { convertAction } from './convert-action';
import { expandAgentGroup } from './expand-agent-group';
import { formatDurationMs } from './format-duration';
import { childPointer, type Problem } from './problem';
import type { RawScenario, RawTimings } from './raw-scenario';
import { SCENARIO_DURATION_MAX_MS } from './scenario-limits';
import { MAX_INSTANCES } from '../../src/scheduler/model/run-spec-limits';
import { NEEDS_SCHEDULER, type Scenario, type TimelineStep } from './scenario';

function timings(context: ConversionContext, pointer: string, raw: RawTimings): SimTimings {
  const range = (key: keyof RawTimings, fallback: SimTimings['stagingMs']) => {
    const value = raw[key];
    return value === undefined ? fallback : context.delayRangeMs(childPointer(pointer, key), value);
  };
  const offerIntervalMs = context.optionalDurationMs(childPointer(pointer, 'offerInterval'), raw.offerInterval)
    ?? DEFAULT_SIM_TIMINGS.offerIntervalMs;
  if (offerIntervalMs === 0) context.problem(childPointer(pointer, 'offerInterval'), 'expected a duration greater than 0');
  const agentRemovalMs = context.optionalDurationMs(childPointer(pointer, 'agentRemoval'), raw.agentRemoval);
  return {
    offerIntervalMs,
    stagingMs: range('staging', DEFAULT_SIM_TIMINGS.stagingMs),
    startingMs: range('starting', DEFAULT_SIM_TIMINGS.startingMs),
    runningMs: range('running', DEFAULT_SIM_TIMINGS.runningMs),
    shutdownMs: range('shutdown', DEFAULT_SIM_TIMINGS.shutdownMs),
    agentPingTimeoutMs: context.optionalDurationMs(childPointer(pointer, 'agentPingTimeout'), raw.agentPingTimeout)
      ?? DEFAULT_SIM_TIMINGS.agentPingTimeoutMs,
    probeLatencyMs: range('probeLatency', DEFAULT_SIM_TIMINGS.probeLatencyMs),
    ...(agentRemovalMs === undefined ? {} : { agentRemovalMs }),
  };
}

/** The instances a definition asks for (Marathon's default: 1). */
function asked(definition: Readonly<Record<string, unknown>>): number {
  const scaling = definition.scaling as { instances?: unknown } | undefined;
  const n = definition.instances ?? scaling?.instances ?? 1;
  return typeof n === 'number' ? n : 0;
}

/**
 * Bounds the instances of a run: those asked by every app, pod, scale and deploy step together
 * at most MAX_INSTANCES (an upper bound of what exists at once; 100 apps of 100,000 would hold
 * ten million instances in memory). Reported at the step that passes it.
 */
function checkInstancesAsked(context: ConversionContext, raw: RawScenario): void {
  let total = 0;
  for (const [index, step] of raw.timeline.entries()) {
    const at = childPointer('/timeline', index);
    const parts: [string, number][] = [];
    if (step.app !== undefined) parts.push([childPointer(at, 'app', 'instances'), asked(step.app)]);
    if (step.pod !== undefined) parts.push([childPointer(at, 'pod', 'scaling', 'instances'), asked(step.pod)]);
    if (step.scale !== undefined) parts.push([childPointer(at, 'scale', 'instances'), step.scale.instances]);
    for (const [i, app] of (step.deploy?.apps ?? []).entries()) parts.push([childPointer(at, 'deploy', 'apps', i, 'instances'), asked(app)]);
    for (const [i, pod] of (step.deploy?.pods ?? []).entries()) parts.push([childPointer(at, 'deploy', 'pods', i, 'scaling', 'instances'), asked(pod)]);
    for (const [pointer, n] of parts) {
      total += n;
      if (total > MAX_INSTANCES) {
        context.problem(pointer, `expected at most ${MAX_INSTANCES} instances asked by all the file's app, pod, scale and deploy steps together, these make ${total}`);
        return;
      }
    }
  }
}

/**
 * The semantic half of loading: converts a document the schema accepted into a {@link Scenario},
 * checking what the schema cannot say: durations in whole milliseconds, steps in time order and
 * within the run, ranges, unique agent ids and hostnames, references to agents (known at that
 * step) and to run specs (created by some app or pod step of the file). Returns every problem found.
 * `lineOf` gives the line of a JSON pointer, for {@link TimelineStep.line}.
 */
export function convertScenario(
  raw: RawScenario,
  lineOf: (pointer: string) => number | undefined,
): { ok: true; scenario: Scenario } | { ok: false; problems: Problem[] } {
  const runSpecIds = raw.timeline.flatMap((step) => {
    const definitions = [step.app, step.pod, ...(step.deploy?.apps ?? []), ...(step.deploy?.pods ?? [])];
    return definitions.flatMap((d) => (d === undefined ? [] : [absoluteRunSpecId(d.id)]));
  });
  const context = new ConversionContext([...new Set(runSpecIds)]);
  const durationMs = context.durationMs('/duration', raw.duration);
  if (durationMs > SCENARIO_DURATION_MAX_MS) {
    context.problem('/duration', `expected at most ${formatDurationMs(SCENARIO_DURATION_MAX_MS)} of virtual time, got ${formatDurationMs(durationMs)}`);
  }
  checkInstancesAsked(context, raw);
  const options = raw.options ?? {};
  const convergeWithinMs = context.optionalDurationMs('/invariants/convergeWithin', raw.invariants?.convergeWithin);
  const agents: SimAgentSpec[] = raw.cluster.agents.flatMap((group, index) =>
    expandAgentGroup(context, childPointer('/cluster/agents', index), group));

  const timeline: TimelineStep[] = [];
  let previousMs = 0;
  raw.timeline.forEach((step, index) => {
    const pointer = childPointer('/timeline', index);
    const atMs = context.durationMs(childPointer(pointer, 'at'), step.at);
    if (atMs < previousMs) {
      context.problem(childPointer(pointer, 'at'), `expected a time at or after the previous step's (${formatDurationMs(previousMs)}), `
        + `got ${formatDurationMs(atMs)}: steps must be in time order`);
    } else if (atMs > durationMs) {
      context.problem(childPointer(pointer, 'at'), `expected a time within the run (duration ${formatDurationMs(durationMs)}), `
        + `got ${formatDurationMs(atMs)}: the step would never run`);
    }
    previousMs = Math.max(previousMs, atMs);
    const line = lineOf(pointer);
    const action = convertAction(context, pointer, step);
    timeline.push({ atMs, ...(line === undefined ? {} : { line }), pointer, action });
  });
  checkFailovers(context, timeline, durationMs);
  const scenario: Scenario = {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    seed: raw.seed,
    durationMs,
    options: {
      taskKilling: options.taskKilling ?? false,
      defaultRole: options.defaultRole ?? '*',
      ...(options.maxInstancesPerOffer === undefined ? {} : { maxInstancesPerOffer: options.maxInstancesPerOffer }),
      ...(options.unhealthyKillFloor === undefined ? {} : { unhealthyKillFloor: options.unhealthyKillFloor }),
      timings: timings(context, '/options/timings', options.timings ?? {}),
    },
    invariants: {
      ...(convergeWithinMs === undefined ? {} : { convergeWithinMs }),
      ...(raw.invariants?.upgradeBounds === true ? { upgradeBounds: true } : {}),
    },
    agents,
    timeline,
  };
  return context.problems.length === 0 ? { ok: true, scenario } : { ok: false, problems: context.problems };
}

/**
 * While a `schedulerFailover` leaves no scheduler — from its step to the end of its downtime,
 * both included — no step may need one: commands and expectations are refused (with what to do),
 * as is a second failover; the takeover must happen within the run.
 */
function checkFailovers(context: ConversionContext, timeline: readonly TimelineStep[], durationMs: number): void {
  timeline.forEach((step, index) => {
    if (step.action.type !== 'schedulerFailover') return;
    const downtimeMs = step.action.downtimeMs;
    const untilMs = step.atMs + downtimeMs;
    const window = `from ${formatDurationMs(step.atMs)} to ${formatDurationMs(untilMs)}`;
    const where = step.line === undefined ? step.pointer : `line ${step.line}`;
    if (untilMs > durationMs) {
      context.problem(childPointer(step.pointer, 'schedulerFailover', 'downtime'), `expected the takeover within the run (duration ${formatDurationMs(durationMs)}), `
        + `got a downtime of ${formatDurationMs(downtimeMs)} from ${formatDurationMs(step.atMs)}: no scheduler would lead at the end`);
    }
    for (const later of timeline.slice(index + 1)) {
      if (later.atMs > untilMs) break;
      if (!NEEDS_SCHEDULER.has(later.action.type)) continue;
      context.problem(childPointer(later.pointer, later.action.type), `no scheduler leads ${window} (the schedulerFailover step at ${where}): `
        + `${later.action.type} needs one; move it after ${formatDurationMs(untilMs)}`);
    }
  });
}
