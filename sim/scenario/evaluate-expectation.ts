import { isTerminalCondition } from '../../src/scheduler/model/condition';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../src/scheduler/model/no-match-reason';
import { fieldValue } from '../../src/scheduler/index';
import { compare, formatExpected, formatSatisfied, type Comparison } from './comparison';
import type { DeploymentCheck, EventCountCheck, Expectation, SpreadCheck } from './expectation';
import { formatDurationMs } from './format-duration';
import type { ObservedInstance, ScenarioObservation } from './scenario-observation';

/** The outcome of one `expect` step: one line per check, `PASS …` or `FAIL …`. */
export interface ExpectationResult {
  readonly passed: boolean;
  readonly lines: string[];
}

/** Appends the line of one counted check: `PASS /web Running = 3` or `FAIL /web Running: expected 3, got 2`. */
function countLine(lines: string[], subject: string, expected: Comparison, actual: number, detail = ''): boolean {
  const passed = compare(expected, actual);
  lines.push(passed
    ? `PASS ${subject} ${formatSatisfied(expected, actual)}`
    : `FAIL ${subject}: expected ${formatExpected(expected)}, got ${actual}${detail}`);
  return passed;
}

/** Why a `healthy` count may stay 0: the run spec has no health check (or does not exist). Shown only when the count fails. */
function healthDetail(runSpecId: string, obs: ScenarioObservation): string {
  const checked = obs.hasHealthChecks?.(runSpecId);
  if (checked === false) return ` (${runSpecId} has no health check: the health of its instances stays unknown, as in Marathon, and only instances with a passing check count as healthy)`;
  if (checked === undefined && obs.hasHealthChecks !== undefined) return ` (no app or pod ${runSpecId} exists now)`;
  return '';
}

function isLivePlaced(instance: ObservedInstance): boolean {
  return instance.agent !== undefined && !isTerminalCondition(instance.condition);
}

function spreadLines(lines: string[], check: SpreadCheck, obs: ScenarioObservation): boolean {
  const counts = new Map<string, number>();
  for (const agent of obs.agents?.() ?? []) {
    const value = fieldValue(agent, check.field);
    if (value !== undefined) counts.set(value, 0);
  }
  let withoutValue = 0;
  for (const instance of obs.instances(check.runSpecId).filter(isLivePlaced)) {
    const value = fieldValue(instance.agent!, check.field);
    if (value === undefined) withoutValue++;
    else counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const entries = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const values = entries.map(([, count]) => count);
  const detail = ` (${entries.map(([value, count]) => `${value}: ${count}`).join(', ') || 'no values'}`
    + `${withoutValue > 0 ? `; ${withoutValue} on agents without ${check.field}` : ''})`;
  const subject = `${check.runSpecId} spread over ${check.field}`;
  const max = values.length === 0 ? 0 : Math.max(...values);
  const min = values.length === 0 ? 0 : Math.min(...values);
  let passed = true;
  if (check.values !== undefined) {
    passed = countLine(lines, `${subject}: values`, check.values, values.filter((count) => count > 0).length, detail) && passed;
  }
  if (check.maxPerValue !== undefined) {
    passed = countLine(lines, `${subject}: max per value`, { op: '<=', value: check.maxPerValue }, max, detail) && passed;
  }
  if (check.minPerValue !== undefined) {
    passed = countLine(lines, `${subject}: min per value`, { op: '>=', value: check.minPerValue }, min, detail) && passed;
  }
  if (check.maxSkew !== undefined) {
    passed = countLine(lines, `${subject}: skew`, { op: '<=', value: check.maxSkew }, max - min, detail) && passed;
  }
  return passed;
}

function eventLines(lines: string[], check: EventCountCheck, obs: ScenarioObservation): boolean {
  const where = Object.entries(check.where);
  let seen = 0;
  for (const { atMs, event } of obs.events) {
    if (event.eventType !== check.eventType || atMs < check.sinceMs) continue;
    const fields = event as unknown as Readonly<Record<string, unknown>>;
    if (where.every(([field, value]) => fields[field] === value)) seen++;
  }
  const filter = where.length === 0 ? '' : ` [${where.map(([field, value]) => `${field}=${String(value)}`).join(', ')}]`;
  const subject = `events ${check.eventType}${filter}${check.sinceMs > 0 ? ` since ${formatDurationMs(check.sinceMs)}` : ''}`;
  let passed = true;
  for (const expected of check.expected) passed = countLine(lines, subject, expected, seen) && passed;
  return passed;
}

/**
 * Checks an expectation against what the run shows now. Pure. Instance counts cover the
 * instances the observation lists (`total`: all of them); spread and placement cover live placed
 * instances (placed on an agent, not in a terminal condition); events count from `since` to now.
 */
export function evaluateExpectation(expect: Expectation, obs: ScenarioObservation): ExpectationResult {
  const lines: string[] = [];
  let passed = true;
  for (const check of expect.instances) {
    const instances = obs.instances(check.runSpecId);
    for (const { key, expected } of check.counts) {
      const actual = key === 'total' ? instances.length : instances.filter((instance) => instance.condition === key).length;
      passed = countLine(lines, `${check.runSpecId} ${key}`, expected, actual) && passed;
    }
  }
  for (const check of expect.healthy) {
    const actual = obs.instances(check.runSpecId).filter((instance) => instance.healthy === true).length;
    passed = countLine(lines, `${check.runSpecId} healthy`, check.expected, actual, healthDetail(check.runSpecId, obs)) && passed;
  }
  for (const check of expect.spread) passed = spreadLines(lines, check, obs) && passed;
  for (const check of expect.onAgents) {
    const placed = obs.instances(check.runSpecId).filter(isLivePlaced);
    const elsewhere = placed.filter((instance) => !check.agentIds.includes(instance.agent!.agentId));
    const subject = `${check.runSpecId} on agents [${check.agentIds.join(', ')}]`;
    if (elsewhere.length === 0) {
      lines.push(`PASS ${subject} (${placed.length} placed)`);
    } else {
      passed = false;
      lines.push(`FAIL ${subject}: ${elsewhere.length} of ${placed.length} elsewhere: `
        + elsewhere.map((instance) => `${instance.instanceId} on ${instance.agent!.agentId}`).join(', '));
    }
  }
  for (const check of expect.events) passed = eventLines(lines, check, obs) && passed;
  for (const check of expect.rejections) {
    const recorded = obs.rejections(check.runSpecId);
    const times = recorded[check.reason] ?? 0;
    const subject = `${check.runSpecId} rejected for ${check.reason}`;
    if (times > 0) {
      lines.push(`PASS ${subject} (${times} times)`);
    } else {
      passed = false;
      lines.push(`FAIL ${subject}: expected at least 1 rejection, got 0 (recorded: ${recordedReasons(recorded)})`);
    }
  }
  for (const check of expect.deployments) passed = deploymentLines(lines, check, obs) && passed;
  return { passed, lines };
}

/** A deployment check: whether one holds the run spec, and what its action waits for. */
function deploymentLines(lines: string[], check: DeploymentCheck, obs: ScenarioObservation): boolean {
  const d = obs.deployment?.(check.runSpecId);
  const subject = `${check.runSpecId} deployment`;
  let passed = true;
  if (check.running !== undefined) {
    const ok = (d !== undefined) === check.running;
    passed = ok;
    lines.push(`${ok ? 'PASS' : 'FAIL'} ${subject} ${check.running ? 'running' : 'not running'}${ok ? '' : `: ${d === undefined ? 'none runs' : `${d.deploymentId} runs`}`}`);
  }
  const counts: [string, Comparison | undefined, number][] = [
    ['unplaced', check.unplaced, d?.unplaced ?? 0], ['notHealthy', check.notHealthy, d?.notHealthy ?? 0], ['toReplace', check.toReplace, d?.toReplace ?? 0],
  ];
  for (const [name, expected, actual] of counts) {
    if (expected !== undefined) passed = countLine(lines, `${subject} waits: ${name}`, expected, actual) && passed;
  }
  if (check.reason !== undefined) {
    const times = d?.rejections[check.reason] ?? 0;
    const ok = times > 0;
    passed = ok && passed;
    // A failure says what the deployment's action was refused for instead, as the rejections section does.
    const why = d === undefined ? 'no deployment runs' : `recorded: ${recordedReasons(d.rejections)}`;
    lines.push(`${ok ? 'PASS' : 'FAIL'} ${subject} waits: offers refused for ${check.reason}${ok ? ` (${times} times)` : `: expected at least 1 rejection, got 0 (${why})`}`);
  }
  return passed;
}

/** The reasons recorded with their counts, in Marathon's order of the reasons (`none` when there is none). */
function recordedReasons(recorded: Readonly<Partial<Record<NoMatchReason, number>>>): string {
  const given = NO_MATCH_REASONS.filter((reason) => (recorded[reason] ?? 0) > 0).map((reason) => `${reason}: ${recorded[reason]}`);
  return given.join(', ') || 'none';
}
