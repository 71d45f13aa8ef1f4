import { CONDITIONS, type Condition } from '../../src/scheduler/model/condition';
import type { EventType } from '../../src/scheduler/model/events';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';
import type { Comparison } from './comparison';
import type { ConversionContext } from './conversion-context';
import { TASK_STATES } from '../../src/scheduler/model/task-state';
import { describeValue } from './describe-value';
import { EVENT_FIELDS } from './event-fields';
import type { EventCountCheck, EventFieldValue, Expectation, InstanceCountCheck, OnAgentsCheck, SpreadCheck } from './expectation';
import { parseComparison } from './parse-comparison';
import { childPointer } from './problem';
import type { RawCount, RawEventCheck, RawExpectation, RawOnAgentsCheck } from './raw-scenario';
import { suggestName } from './suggest-name';

function comparison(context: ConversionContext, pointer: string, value: RawCount): Comparison {
  const parsed = parseComparison(value);
  if (parsed.ok) return parsed.comparison;
  context.problem(pointer, parsed.reason);
  return { op: '=', value: 0 };
}

/** The `where` fields whose values are run spec ids: written as in any step, with or without the leading `/`. */
const RUN_SPEC_ID_FIELDS: ReadonlySet<string> = new Set(['appId', 'runSpecId']);
/** The `where` fields whose values are one of a closed set: a misspelt one matched nothing and failed (or passed a `max`) at run time. */
const CLOSED_FIELDS: Readonly<Record<string, readonly string[]>> = { taskStatus: TASK_STATES, condition: CONDITIONS };

/** A `where` value as the events carry it, refused with what was expected when no event can have it. */
function whereValue(context: ConversionContext, pointer: string, field: string, value: EventFieldValue): EventFieldValue {
  if (RUN_SPEC_ID_FIELDS.has(field)) {
    if (typeof value === 'string') return context.runSpecId(pointer, value);
    context.problem(pointer, `expected the id of an app or pod of this scenario, such as "/web", got ${describeValue(value)}`);
    return value;
  }
  const allowed = CLOSED_FIELDS[field];
  if (allowed !== undefined && (typeof value !== 'string' || !allowed.includes(value))) {
    const suggestion = typeof value === 'string' ? suggestName(value, allowed) : undefined;
    context.problem(pointer, `expected one of: ${allowed.join(', ')}, got ${describeValue(value)}`
      + `${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`);
  }
  return value;
}

function eventCheck(context: ConversionContext, pointer: string, raw: RawEventCheck): EventCountCheck {
  const eventType = raw.type as EventType;
  const fields = EVENT_FIELDS[eventType];
  const where: Record<string, EventFieldValue> = {};
  for (const [field, value] of Object.entries(raw.where ?? {})) {
    if (!fields.includes(field)) {
      const suggestion = suggestName(field, fields);
      context.problem(childPointer(pointer, 'where', field), `${eventType} has no field "${field}"`
        + `${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`} (fields: ${fields.join(', ')})`);
    }
    where[field] = whereValue(context, childPointer(pointer, 'where', field), field, value);
  }
  const expected: Comparison[] = [];
  if (raw.count !== undefined) expected.push({ op: '=', value: raw.count });
  if (raw.min !== undefined) expected.push({ op: '>=', value: raw.min });
  if (raw.max !== undefined) expected.push({ op: '<=', value: raw.max });
  if (raw.min !== undefined && raw.max !== undefined && raw.min > raw.max) {
    context.problem(pointer, `min (${raw.min}) is greater than max (${raw.max})`);
  }
  if (expected.length === 0) expected.push({ op: '>=', value: 1 });
  return { eventType, where, sinceMs: context.optionalDurationMs(childPointer(pointer, 'since'), raw.since) ?? 0, expected };
}

/** The built-in fields of constraints; any other field starting with `@` names nothing (attribute names cannot start with `@`). */
const BUILT_IN_FIELDS: readonly string[] = ['@hostname', '@region', '@zone'];

/** Refuses a spread field that no agent can have: a misspelt built-in (`@zones`) would count no values and pass. */
function checkSpreadField(context: ConversionContext, pointer: string, field: string): void {
  if (!field.startsWith('@') || BUILT_IN_FIELDS.includes(field)) return;
  const suggestion = suggestName(field, BUILT_IN_FIELDS);
  context.problem(pointer, `unknown field ${JSON.stringify(field)}`
    + `${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`} (built in: ${BUILT_IN_FIELDS.join(', ')}; attribute names cannot start with "@")`);
}

function onAgentsChecks(context: ConversionContext, pointer: string, raw: RawOnAgentsCheck | readonly RawOnAgentsCheck[]): OnAgentsCheck[] {
  const list = Array.isArray(raw) ? raw as readonly RawOnAgentsCheck[] : [raw as RawOnAgentsCheck];
  return list.map((check, index) => {
    const at = Array.isArray(raw) ? childPointer(pointer, index) : pointer;
    return {
      runSpecId: context.runSpecId(childPointer(at, 'id'), check.id),
      agentIds: check.agents.map((agentId, agentIndex) => context.agentId(childPointer(at, 'agents', agentIndex), agentId)),
    };
  });
}

/**
 * Converts an `expect` block (already accepted by the schema) into an {@link Expectation}: counts
 * parsed, run spec ids made absolute and checked against the file's apps and pods, agent ids
 * checked against the agents known at this step, event `where` fields checked per event type.
 */
export function convertExpectation(context: ConversionContext, pointer: string, raw: RawExpectation): Expectation {
  const instances: InstanceCountCheck[] = Object.entries(raw.instances ?? {}).map(([id, counts]) => {
    const at = childPointer(pointer, 'instances', id);
    return {
      runSpecId: context.runSpecId(at, id),
      counts: Object.entries(counts).map(([key, value]) => ({
        key: key as Condition | 'total',
        expected: comparison(context, childPointer(at, key), value),
      })),
    };
  });
  const healthy = Object.entries(raw.healthy ?? {}).map(([id, value]) => {
    const at = childPointer(pointer, 'healthy', id);
    return { runSpecId: context.runSpecId(at, id), expected: comparison(context, at, value) };
  });
  const spread: SpreadCheck[] = (raw.spread ?? []).map((check, index) => {
    const at = childPointer(pointer, 'spread', index);
    if (check.values === undefined && check.maxPerValue === undefined && check.minPerValue === undefined && check.maxSkew === undefined) {
      context.problem(at, 'expected at least one check: values, maxPerValue, minPerValue or maxSkew');
    }
    if (check.minPerValue !== undefined && check.maxPerValue !== undefined && check.minPerValue > check.maxPerValue) {
      context.problem(at, `minPerValue (${check.minPerValue}) is greater than maxPerValue (${check.maxPerValue})`);
    }
    checkSpreadField(context, childPointer(at, 'field'), check.field);
    return {
      runSpecId: context.runSpecId(childPointer(at, 'id'), check.id),
      field: check.field,
      ...(check.values === undefined ? {} : { values: comparison(context, childPointer(at, 'values'), check.values) }),
      ...(check.maxPerValue === undefined ? {} : { maxPerValue: check.maxPerValue }),
      ...(check.minPerValue === undefined ? {} : { minPerValue: check.minPerValue }),
      ...(check.maxSkew === undefined ? {} : { maxSkew: check.maxSkew }),
    };
  });
  const onAgents = raw.onAgents === undefined ? [] : onAgentsChecks(context, childPointer(pointer, 'onAgents'), raw.onAgents);
  const events = (raw.events ?? []).map((check, index) => eventCheck(context, childPointer(pointer, 'events', index), check));
  const rejections = (raw.rejections ?? []).map((check, index) => ({
    runSpecId: context.runSpecId(childPointer(pointer, 'rejections', index, 'id'), check.id),
    reason: check.reason as NoMatchReason,
  }));
  const deployments = (raw.deployments ?? []).map((check, index) => {
    const at = childPointer(pointer, 'deployments', index);
    return {
      runSpecId: context.runSpecId(childPointer(at, 'id'), check.id),
      ...(check.running === undefined ? {} : { running: check.running }),
      ...(check.unplaced === undefined ? {} : { unplaced: comparison(context, childPointer(at, 'unplaced'), check.unplaced) }),
      ...(check.notHealthy === undefined ? {} : { notHealthy: comparison(context, childPointer(at, 'notHealthy'), check.notHealthy) }),
      ...(check.toReplace === undefined ? {} : { toReplace: comparison(context, childPointer(at, 'toReplace'), check.toReplace) }),
      ...(check.reason === undefined ? {} : { reason: check.reason as NoMatchReason }),
    };
  });
  return { instances, healthy, spread, onAgents, events, rejections, deployments };
}
