import { isTerminalCondition, type Condition } from '../../src/scheduler/model/condition';
import type { InstanceChangedEvent, MarathonEvent } from '../../src/scheduler/model/events';
import { isUnplacedDrop, shortInstanceId, type Decision } from '../../src/runtime/decision-reader';
import type { RunResult } from '../runner/run-result';
import type { Scenario, TimelineStep } from '../scenario/scenario';
import { assignLanes } from './assign-lanes';
import { capRows, TIMELINE_ROWS_MAX } from './cap-rows';
import { foldUnplaced, UNPLACED_ROW } from './fold-unplaced';
import type { Row } from './row';

export type { Row } from './row';

/**
 * One stretch of an instance in one condition on one agent (none while unplaced), in virtual ms
 * since the start; or, in a row of unplaced instances, a stretch over which `count` of them wait.
 */
export interface Segment {
  readonly instanceId: string;
  readonly label: string;
  readonly runSpecId: string;
  readonly agentId: string | null;
  readonly condition: Condition;
  readonly fromMs: number;
  readonly toMs: number;
  /** Rows of unplaced instances: how many of the run spec's instances wait over the stretch. */
  readonly count?: number;
}

/** A fault over a stretch of time: an agent cut off (partition … heal) or lost (killAgent … end). */
export interface Fault {
  readonly kind: 'partition' | 'agent lost';
  readonly agentId: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly label: string;
}

/** Something at one instant: a deployment, an expectation, a step of the timeline, an instance that crashed. */
export interface Mark {
  readonly kind: 'deployment' | 'deployment finished' | 'deployment failed' | 'expect passed' | 'expect failed' | 'step' | 'crash';
  readonly atMs: number;
  readonly label: string;
  /** The timeline row (crashes only). */
  readonly row?: string;
}

/** Instances of one run spec at one instant: running, and alive (any condition that is not terminal). */
export interface CountSample {
  readonly runSpecId: string;
  readonly atMs: number;
  readonly running: number;
  readonly alive: number;
}

/** What the report reads of a scenario: a replayed recording (sim/replay) has no file, only a name and agents. */
export interface ReportScenario {
  readonly name: string;
  readonly description?: string;
  readonly agents: readonly { readonly agentId: string }[];
  readonly timeline: Scenario['timeline'];
}

/** Everything the report shows, as plain data (embedded in the page as JSON). */
export interface ReportData {
  readonly name: string;
  readonly seed: number;
  readonly passed: boolean;
  readonly durationMs: number;
  readonly traceHash: string;
  readonly rows: readonly Row[];
  /** Segments with the row they are drawn in. */
  readonly segments: readonly (Segment & { readonly row: string })[];
  /** Faults, one per row of the agent they hit. */
  readonly faults: readonly (Fault & { readonly row: string })[];
  readonly marks: readonly Mark[];
  readonly counts: readonly CountSample[];
  /** Rows not drawn: the timeline shows at most {@link TIMELINE_ROWS_MAX}; how many more, with how many instances. */
  readonly omitted?: { readonly rows: number; readonly instances: number; readonly max: number };
}

/** The records of a JSONL trace this report reads. */
type TraceRecord =
  | { readonly t: number; readonly k: 'event'; readonly e: MarathonEvent }
  | { readonly t: number; readonly k: 'step'; readonly action: string; readonly at: string }
  | { readonly t: number; readonly k: 'expect'; readonly passed: boolean }
  | { readonly t: number; readonly k: string };

/** The instance's open stretch while it is followed. */
interface Open {
  readonly event: InstanceChangedEvent;
  readonly fromMs: number;
}

/**
 * The report's data, read from the run's trace (`result.traceText`, which the run must keep): each
 * instance's stretches per condition and agent from its `instance_changed_event`s, faults from the
 * timeline steps the trace records (partition … heal, killAgent), deployments from their events,
 * expectations from their records, crashes (instances ending Failed or Error), and the count of
 * running and live instances per run spec after every instant. What the trace does not tell —
 * when the core forgot an unreachable instance, or dropped one still waiting for an offer (its
 * `instance_changed_event` keeps the condition `Scheduled`, as Marathon's expunge event carries the
 * last one) — comes from the run's `expunged` and `drop unplaced` decisions: the instance's row
 * ends there. Instances waiting for an offer are folded into one row per run spec, and the
 * timeline has at most {@link TIMELINE_ROWS_MAX} rows (`omitted` says how many more).
 */
export function reportData(scenario: ReportScenario, result: RunResult): ReportData {
  const records = result.traceText.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as TraceRecord);
  const endMs = result.virtualMs;
  const open = new Map<string, Open>();
  const segments: Segment[] = [];
  const crashes: { atMs: number; event: InstanceChangedEvent }[] = [];
  const marks: Mark[] = [];
  const counts: CountSample[] = [];
  const alive = new Map<string, Alive>();
  const faults: Fault[] = [];
  const cutOff = new Map<string, number>();
  const agents = scenario.agents.map((a) => a.agentId);
  let expects = 0;
  // A stretch of no time (Scheduled and placed at one instant) draws nothing and is left out.
  const close = (o: Open, toMs: number) => toMs > o.fromMs && segments.push({
    instanceId: o.event.instanceId, label: shortInstanceId(o.event.instanceId), runSpecId: o.event.runSpecId,
    agentId: o.event.agentId, condition: o.event.condition, fromMs: o.fromMs, toMs,
  });

  // The core forgets unreachable instances without an event, and drops unplaced ones with an event
  // that keeps their condition: the run's decisions say when.
  const expunges = result.decisions.filter((d) => isGone(d.decision));
  let nextExpunge = 0;
  const expungeUntil = (beforeMs: number) => {
    for (; nextExpunge < expunges.length && expunges[nextExpunge].atMs < beforeMs; nextExpunge++) {
      const { atMs, decision } = expunges[nextExpunge];
      const o = decision.instanceId === undefined ? undefined : open.get(decision.instanceId);
      if (o === undefined) continue;
      close(o, atMs);
      open.delete(o.event.instanceId);
      pushCount(counts, countOf(alive, { ...o.event, condition: 'Gone' }, atMs));
    }
  };
  for (const r of records) {
    expungeUntil(r.t);
    if (r.k === 'event') {
      const e = (r as { e: MarathonEvent }).e;
      if (e.eventType === 'instance_changed_event') {
        const before = open.get(e.instanceId);
        if (before !== undefined && before.event.condition === e.condition && before.event.agentId === e.agentId) continue;
        if (before !== undefined) close(before, r.t);
        open.delete(e.instanceId);
        if (isTerminalCondition(e.condition)) {
          if (e.condition === 'Failed' || e.condition === 'Error') crashes.push({ atMs: r.t, event: e });
        } else {
          open.set(e.instanceId, { event: e, fromMs: r.t });
        }
        pushCount(counts, countOf(alive, e, r.t));
      } else if (e.eventType === 'deployment_info' && e.plan.steps.length > 0 && sameStep(e.plan.steps[0].actions, e.currentStep.actions)) {
        marks.push({ kind: 'deployment', atMs: r.t, label: `deployment ${e.plan.id.slice(0, 8)}: ${e.plan.steps.flatMap((s) => s.actions.map((a) => `${a.action} ${a.app ?? a.pod}`)).join(', ')}` });
      } else if (e.eventType === 'deployment_success' || e.eventType === 'deployment_failed') {
        const failed = e.eventType === 'deployment_failed';
        marks.push({ kind: failed ? 'deployment failed' : 'deployment finished', atMs: r.t, label: `deployment ${e.id.slice(0, 8)} ${failed ? 'failed' : 'finished'}` });
      }
    } else if (r.k === 'step') {
      const step = scenario.timeline.find((s) => s.pointer === (r as { at: string }).at);
      if (step !== undefined) stepMarks(step, r.t, { marks, faults, cutOff, agents, endMs });
    } else if (r.k === 'expect') {
      // Expectations are recorded in the order their records are traced.
      const outcome = result.expectations[expects++];
      const passed = (r as { passed: boolean }).passed;
      marks.push({ kind: passed ? 'expect passed' : 'expect failed', atMs: r.t, label: `expect${outcome?.line === undefined ? '' : ` (line ${outcome.line})`}: ${(outcome?.lines ?? []).join('; ')}` });
    }
  }
  expungeUntil(Number.POSITIVE_INFINITY);
  for (const o of open.values()) close(o, endMs);
  for (const [agentId, fromMs] of cutOff) faults.push({ kind: 'partition', agentId, fromMs, toMs: endMs, label: `partition ${agentId} (not healed)` });

  const placed = segments.filter((seg): seg is Segment & { readonly agentId: string } => seg.agentId !== null);
  const lanes = assignLanes(agents, placed);
  const unplaced = foldUnplaced(segments.filter((seg) => seg.agentId === null));
  const rowOf = (agentId: string | null, instanceId: string, runSpecId: string): string => (
    agentId === null ? `${UNPLACED_ROW}#${runSpecId}` : lanes.rowOf(agentId, instanceId));
  const rows = [...lanes.rows, ...unplaced.rows];
  const drawn = capRows(rows);
  const keys = new Set(drawn.map((r) => r.key));
  const placedRows = placed.map((seg) => ({ ...seg, row: rowOf(seg.agentId, seg.instanceId, seg.runSpecId) }));
  for (const c of crashes) {
    const row = rowOf(c.event.agentId, c.event.instanceId, c.event.runSpecId);
    if (keys.has(row)) marks.push({ kind: 'crash', atMs: c.atMs, row, label: `${shortInstanceId(c.event.instanceId)} of ${c.event.runSpecId} ${c.event.condition}` });
  }
  const hidden = placedRows.filter((seg) => !keys.has(seg.row));
  return {
    name: scenario.name, seed: result.seed, passed: result.passed, durationMs: endMs, traceHash: result.traceHash,
    rows: drawn,
    segments: [...placedRows.filter((seg) => keys.has(seg.row)), ...unplaced.summaries.filter((seg) => keys.has(seg.row))],
    faults: faults.flatMap((f) => lanes.rowsOf(f.agentId).filter((row) => keys.has(row)).map((row) => ({ ...f, row }))),
    marks: marks.sort((a, b) => a.atMs - b.atMs),
    counts,
    ...(drawn.length === rows.length ? {} : { omitted: { rows: rows.length - drawn.length, instances: new Set(hidden.map((seg) => seg.instanceId)).size, max: TIMELINE_ROWS_MAX } }),
  };
}

/** A decision after which an instance is no longer drawn: expunged, or dropped while it waited for an offer. */
function isGone(decision: Decision): boolean {
  return decision.kind === 'expunged' || isUnplacedDrop(decision);
}

/** Adds a sample, in place of the run spec's previous one at the same instant (only the last of an instant is drawn). */
function pushCount(counts: CountSample[], sample: CountSample): void {
  for (let i = counts.length - 1; i >= 0 && counts[i].atMs === sample.atMs; i--) {
    if (counts[i].runSpecId === sample.runSpecId) {
      counts.splice(i, 1);
      break;
    }
  }
  counts.push(sample);
}

function sameStep(a: readonly Readonly<Record<string, string>>[], b: readonly Readonly<Record<string, string>>[]): boolean {
  return a.length === b.length && a.every((x, i) => x.action === b[i].action && (x.app ?? x.pod) === (b[i].app ?? b[i].pod));
}

/** The live instances of one run spec (their conditions) and how many of them run. */
interface Alive {
  readonly byInstance: Map<string, Condition>;
  running: number;
}

/** Updates the live instances of the event's run spec; the sample after the change. */
function countOf(alive: Map<string, Alive>, e: InstanceChangedEvent, atMs: number): CountSample {
  let of = alive.get(e.runSpecId);
  if (of === undefined) alive.set(e.runSpecId, (of = { byInstance: new Map(), running: 0 }));
  if (of.byInstance.get(e.instanceId) === 'Running') of.running--;
  if (isTerminalCondition(e.condition)) of.byInstance.delete(e.instanceId);
  else of.byInstance.set(e.instanceId, e.condition);
  if (e.condition === 'Running') of.running++;
  return { runSpecId: e.runSpecId, atMs, running: of.running, alive: of.byInstance.size };
}

/** What one timeline step adds: a fault (opened or closed), new agents, or a mark. */
function stepMarks(
  step: TimelineStep, atMs: number,
  into: { marks: Mark[]; faults: Fault[]; cutOff: Map<string, number>; agents: string[]; endMs: number },
): void {
  const a = step.action;
  switch (a.type) {
    case 'partition':
      into.cutOff.set(a.agentId, atMs);
      return;
    case 'heal': {
      const fromMs = into.cutOff.get(a.agentId);
      if (fromMs !== undefined) into.faults.push({ kind: 'partition', agentId: a.agentId, fromMs, toMs: atMs, label: `partition ${a.agentId}` });
      into.cutOff.delete(a.agentId);
      return;
    }
    case 'killAgent':
      into.faults.push({ kind: 'agent lost', agentId: a.agentId, fromMs: atMs, toMs: into.endMs, label: `agent ${a.agentId} lost` });
      return;
    case 'addAgents':
      for (const spec of a.agents) if (!into.agents.includes(spec.agentId)) into.agents.push(spec.agentId);
      into.marks.push({ kind: 'step', atMs, label: `add agents ${a.agents.map((s) => s.agentId).join(', ')}` });
      return;
    case 'health':
      into.marks.push({ kind: 'step', atMs, label: `health of ${a.runSpecId}: ${JSON.stringify(a.model)}` });
      return;
    case 'taskModel':
      into.marks.push({ kind: 'step', atMs, label: `tasks of ${a.runSpecId}: ${JSON.stringify(a.model)}` });
      return;
    case 'kill':
      into.marks.push({ kind: 'step', atMs, label: `kill instances of ${a.runSpecId}${a.target.kind === 'agent' ? ` on ${a.target.agentId}` : ` (${a.target.count})`}` });
      return;
    case 'scale':
      into.marks.push({ kind: 'step', atMs, label: `scale ${a.runSpecId} to ${a.instances}` });
      return;
    case 'delete':
      into.marks.push({ kind: 'step', atMs, label: `delete ${a.runSpecId}` });
      return;
    default:
      return;
  }
}
