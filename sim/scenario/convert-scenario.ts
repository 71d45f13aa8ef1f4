import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS, type SimTimings } from '../cluster/sim-models';
import { absoluteRunSpecId, ConversionContext } from './conversion-context';
import { convertAction } from './convert-action';
import { expandAgentGroup } from './expand-agent-group';
import { formatDurationMs } from './format-duration';
import { childPointer, type Problem } from './problem';
import type { RawAgentGroup, RawScenario, RawStep, RawTimings } from './raw-scenario';
import { SCENARIO_DURATION_MAX_MS } from './scenario-limits';
import { MAX_INSTANCES } from '../../src/scheduler/model/run-spec-limits';
import { ACTION_TYPES, NEEDS_SCHEDULER, type Scenario, type TimelineStep } from './scenario';

function timings(context: ConversionContext, pointer: string, given: RawTimings, refused: Refused): SimTimings {
  // A timing the schema refused (and reported) is left out: its default stands in.
  const raw = Object.fromEntries(Object.entries(given).filter(([key]) => !refused(childPointer(pointer, key)))) as RawTimings;
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
function checkInstancesAsked(context: ConversionContext, steps: readonly (RawStep | undefined)[]): void {
  let total = 0;
  for (const [index, step] of steps.entries()) {
    if (step === undefined) continue;
    const at = childPointer('/timeline', index);
    const parts: [string, number][] = [];
    if (isRecord(step.app)) parts.push([childPointer(at, 'app', 'instances'), asked(step.app)]);
    if (isRecord(step.pod)) parts.push([childPointer(at, 'pod', 'scaling', 'instances'), asked(step.pod)]);
    if (isRecord(step.scale) && typeof step.scale.instances === 'number') parts.push([childPointer(at, 'scale', 'instances'), step.scale.instances]);
    for (const [i, app] of listOf(step.deploy?.apps).entries()) parts.push([childPointer(at, 'deploy', 'apps', i, 'instances'), isRecord(app) ? asked(app) : 0]);
    for (const [i, pod] of listOf(step.deploy?.pods).entries()) parts.push([childPointer(at, 'deploy', 'pods', i, 'scaling', 'instances'), isRecord(pod) ? asked(pod) : 0]);
    for (const [pointer, n] of parts) {
      // A value over the bound by itself is refused at its own pointer (the schema's maximum, or
      // the API's for a definition): said once there, not twice.
      if (n > MAX_INSTANCES) continue;
      total += n;
      if (total > MAX_INSTANCES) {
        context.problem(pointer, `expected at most ${MAX_INSTANCES} instances asked by all the file's app, pod, scale and deploy steps together, these make ${total}`);
        return;
      }
    }
  }
}

/**
 * Whether the subtree at a JSON pointer holds a mistake the schema reported (a wrong type, a
 * missing field, a value out of range; not an unknown field, which converting ignores).
 */
export type Refused = (pointer: string) => boolean;

/** What {@link convertScenario} is told besides the document. */
export interface ConvertOptions {
  /**
   * The parts of a document the schema refused (their problems reported by the caller): they are
   * not converted, but everything else is, so that one load reports every mistake of a file.
   * Default: nothing refused (a document the schema accepted).
   */
  readonly refused?: Refused;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Whether a definition's id can be read (else the schema reported it). */
function hasId(definition: unknown): definition is { readonly id: string } {
  return isRecord(definition) && typeof definition.id === 'string' && definition.id !== '';
}

/**
 * The semantic half of loading: converts a document into a {@link Scenario}, checking what the
 * schema cannot say: durations in whole milliseconds, steps in time order and within the run,
 * ranges, unique agent ids and hostnames, references to agents (known at that step) and to run
 * specs (created by some app or pod step of the file), every app and pod definition by the API's
 * converter. Returns every problem found. `lineOf` gives the line of a JSON pointer, for
 * {@link TimelineStep.line}. A document the schema refused is converted too, but for the parts
 * `options.refused` names, so that the problems of both come in one go; a reference that might
 * name something in a refused part (an agent of a refused group, the id of a refused definition)
 * is then not reported.
 */
export function convertScenario(
  raw: RawScenario,
  lineOf: (pointer: string) => number | undefined,
  convertOptions: ConvertOptions = {},
): { ok: true; scenario: Scenario } | { ok: false; problems: Problem[] } {
  const refused: Refused = convertOptions.refused ?? (() => false);
  // A step that is no mapping (the schema said so) is left out, its place kept.
  const steps: readonly (RawStep | undefined)[] = listOf(raw.timeline).map((step) => (isRecord(step) ? step as unknown as RawStep : undefined));
  const definitions = steps.flatMap((step) => step === undefined ? [] : [step.app, step.pod, ...listOf(step.deploy?.apps), ...listOf(step.deploy?.pods)])
    .filter((d) => d !== undefined);
  const runSpecIds = definitions.filter(hasId).map((d) => absoluteRunSpecId(d.id));
  const options = isRecord(raw.options) ? raw.options as NonNullable<RawScenario['options']> : {};
  const defaultRole = typeof options.defaultRole === 'string' && options.defaultRole !== '' ? options.defaultRole : '*';
  const context = new ConversionContext([...new Set(runSpecIds)], definitions.every(hasId), defaultRole);
  context.lineOf = lineOf;
  const durationMs = refused('/duration') ? undefined : context.durationMs('/duration', raw.duration);
  if (durationMs !== undefined && durationMs > SCENARIO_DURATION_MAX_MS) {
    context.problem('/duration', `expected at most ${formatDurationMs(SCENARIO_DURATION_MAX_MS)} of virtual time, got ${formatDurationMs(durationMs)}`);
  }
  checkInstancesAsked(context, steps);
  const invariants = isRecord(raw.invariants) ? raw.invariants as NonNullable<RawScenario['invariants']> : {};
  const convergeWithinMs = refused('/invariants/convergeWithin') ? undefined
    : context.optionalDurationMs('/invariants/convergeWithin', invariants.convergeWithin);
  const groups = isRecord(raw.cluster) ? listOf(raw.cluster.agents) : [];
  if (groups.length === 0) context.agentsComplete = false;
  const agents: SimAgentSpec[] = groups.flatMap((group, index) => {
    const pointer = childPointer('/cluster/agents', index);
    if (!refused(pointer)) return expandAgentGroup(context, pointer, group as RawAgentGroup);
    context.agentsComplete = false;
    return [];
  });

  const timeline: TimelineStep[] = [];
  let previousMs = 0;
  steps.forEach((step, index) => {
    if (step === undefined) return;
    const pointer = childPointer('/timeline', index);
    const atPointer = childPointer(pointer, 'at');
    const atMs = refused(atPointer) ? undefined : context.durationMs(atPointer, step.at);
    if (atMs !== undefined && atMs < previousMs) {
      context.problem(atPointer, `expected a time at or after the previous step's (${formatDurationMs(previousMs)}), `
        + `got ${formatDurationMs(atMs)}: steps must be in time order`);
    } else if (atMs !== undefined && durationMs !== undefined && atMs > durationMs) {
      context.problem(atPointer, `expected a time within the run (duration ${formatDurationMs(durationMs)}), `
        + `got ${formatDurationMs(atMs)}: the step would never run`);
    }
    previousMs = Math.max(previousMs, atMs ?? 0);
    const types = ACTION_TYPES.filter((type) => step[type] !== undefined);
    if (types.length !== 1 || refused(childPointer(pointer, types[0]))) {
      // Not exactly one action, or a refused one: reported by the schema. Agents it may add are not known.
      if (types.includes('addAgents')) context.agentsComplete = false;
      return;
    }
    const line = lineOf(pointer);
    const action = convertAction(context, pointer, step);
    if (atMs !== undefined) timeline.push({ atMs, ...(line === undefined ? {} : { line }), pointer, action });
  });
  checkFailovers(context, timeline, durationMs);
  checkEventWindows(context, timeline);
  const simTimings = timings(context, '/options/timings', isRecord(options.timings) ? options.timings : {}, refused);
  if (context.problems.length > 0 || durationMs === undefined) return { ok: false, problems: context.problems };
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
      timings: simTimings,
    },
    invariants: {
      ...(convergeWithinMs === undefined ? {} : { convergeWithinMs }),
      ...(invariants.upgradeBounds === true ? { upgradeBounds: true } : {}),
    },
    agents,
    timeline,
  };
  return { ok: true, scenario };
}

/**
 * An `events` check counts from `since` to the step's own time, so a `since` after the step's `at`
 * counts nothing, ever: `min` or the default "at least 1" could never hold and `max` always would.
 */
function checkEventWindows(context: ConversionContext, timeline: readonly TimelineStep[]): void {
  for (const step of timeline) {
    if (step.action.type !== 'expect') continue;
    step.action.expectation.events.forEach((check, index) => {
      if (check.sinceMs <= step.atMs) return;
      context.problem(childPointer(step.pointer, 'expect', 'events', index, 'since'), `expected a time at or before the step's own (${formatDurationMs(step.atMs)}), `
        + `got ${formatDurationMs(check.sinceMs)}: events are counted from since to the step, so none would count`);
    });
  }
}

/**
 * While a `schedulerFailover` leaves no scheduler — from its step to the end of its downtime,
 * both included — no step may need one: commands and expectations are refused (with what to do),
 * as is a second failover; the takeover must happen within the run.
 */
function checkFailovers(context: ConversionContext, timeline: readonly TimelineStep[], durationMs: number | undefined): void {
  timeline.forEach((step, index) => {
    if (step.action.type !== 'schedulerFailover') return;
    const downtimeMs = step.action.downtimeMs;
    const untilMs = step.atMs + downtimeMs;
    const window = `from ${formatDurationMs(step.atMs)} to ${formatDurationMs(untilMs)}`;
    const where = step.line === undefined ? step.pointer : `line ${step.line}`;
    if (durationMs !== undefined && untilMs > durationMs) {
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
