import { assert } from '../../src/scheduler/index';
import type { HealthModel, TaskModel } from '../cluster/sim-models';
import { absoluteRunSpecId, type ConversionContext } from './conversion-context';
import { convertExpectation } from './convert-expectation';
import { expandAgentGroup } from './expand-agent-group';
import { definitionProblems } from './definition-shape';
import { childPointer } from './problem';
import type { RawHealthModel, RawStep, RawTaskModel } from './raw-scenario';
import { ACTION_TYPES, DEFAULT_FAILOVER_DOWNTIME_MS, type Action } from './scenario';

function healthModel(context: ConversionContext, pointer: string, raw: RawHealthModel): HealthModel {
  switch (raw.kind) {
    case 'healthy': return { kind: 'healthy' };
    case 'flaky': return { kind: 'flaky', p: raw.p };
    case 'failingFrom': return { kind: 'failingFrom', fromMs: context.durationMs(childPointer(pointer, 'from'), raw.from) };
    case 'failingDuring': {
      const fromMs = context.durationMs(childPointer(pointer, 'from'), raw.from);
      const toMs = context.durationMs(childPointer(pointer, 'to'), raw.to);
      if (fromMs >= toMs) context.problem(childPointer(pointer, 'to'), `expected a time after from (${String(raw.from)}), got ${String(raw.to)}`);
      return { kind: 'failingDuring', fromMs, toMs };
    }
    case 'slow': return { kind: 'slow', latencyMs: context.durationMs(childPointer(pointer, 'latency'), raw.latency) };
    case 'status': return { kind: 'status', status: raw.status };
  }
}

function taskModel(context: ConversionContext, pointer: string, raw: RawTaskModel): TaskModel {
  switch (raw.kind) {
    case 'runForever': return { kind: 'runForever' };
    case 'exitAfter':
      return { kind: 'exitAfter', afterMs: context.delayRangeMs(childPointer(pointer, 'after'), raw.after), state: raw.state ?? 'TASK_FAILED' };
    case 'failToStart': return { kind: 'failToStart', afterMs: context.delayRangeMs(childPointer(pointer, 'after'), raw.after) };
  }
}

const FORCEABLE = new Set(['app', 'pod', 'scale', 'delete', 'deploy']);

/**
 * Converts the one action of a timeline step (already accepted by the schema), its app and pod
 * definitions checked by the API's converter too. `addAgents` registers its agents with the
 * context, so later steps may name them.
 */
export function convertAction(context: ConversionContext, pointer: string, step: RawStep): Action {
  const type = ACTION_TYPES.find((action) => step[action] !== undefined);
  if (type === undefined) assert(false, `the schema lets no step without an action through (${pointer})`);
  const at = childPointer(pointer, type);
  if (step.force !== undefined && !FORCEABLE.has(type)) {
    context.problem(childPointer(pointer, 'force'), `force applies to app, pod, scale, delete and deploy steps, not to ${type}`);
  }
  switch (type) {
    case 'app':
    case 'pod': {
      const definition = step[type] as NonNullable<RawStep['app']>;
      for (const p of definitionProblems(type, definition, at, context.defaultRole)) context.problem(p.pointer, p.message);
      return { type, definition, pointer: at, runSpecId: absoluteRunSpecId(definition.id), force: step.force ?? false };
    }
    case 'scale': {
      const { id, instances } = step.scale as NonNullable<RawStep['scale']>;
      return { type, runSpecId: context.runSpecId(childPointer(at, 'id'), id), instances, force: step.force ?? false };
    }
    case 'delete':
      return { type, runSpecId: context.runSpecId(at, step.delete as string), force: step.force ?? true };
    case 'resetDelay':
      return { type, runSpecId: context.runSpecId(at, step.resetDelay as string) };
    case 'deploy': {
      const deploy = step.deploy as NonNullable<RawStep['deploy']>;
      const refs = (kind: 'app' | 'pod', list: readonly { id: string }[] | undefined) => (list ?? []).map((definition, index) => {
        const pointer = childPointer(at, `${kind}s`, index);
        for (const p of definitionProblems(kind, definition, pointer, context.defaultRole)) context.problem(p.pointer, p.message);
        return { kind, definition, pointer, runSpecId: absoluteRunSpecId(definition.id) };
      });
      return { type, definitions: [...refs('app', deploy.apps), ...refs('pod', deploy.pods)], force: step.force ?? false };
    }
    case 'cancelDeployment': {
      const cancel = step.cancelDeployment as NonNullable<RawStep['cancelDeployment']>;
      return { type, runSpecId: context.runSpecId(childPointer(at, 'id'), cancel.id), force: cancel.force ?? false };
    }
    case 'kill': {
      const kill = step.kill as NonNullable<RawStep['kill']>;
      if (kill.count !== undefined && kill.agent !== undefined) {
        context.problem(at, 'give either count (how many instances) or agent (all instances on that agent), not both');
      }
      return {
        type,
        runSpecId: context.runSpecId(childPointer(at, 'id'), kill.id),
        target: kill.agent === undefined
          ? { kind: 'count', count: kill.count ?? 1 }
          : { kind: 'agent', agentId: context.agentId(childPointer(at, 'agent'), kill.agent) },
        scale: kill.scale ?? false,
        wipe: kill.wipe ?? false,
      };
    }
    case 'partition':
    case 'killAgent': {
      const agentId = context.agentId(at, step[type] as string);
      context.agentFault(at, type, agentId);
      return { type, agentId };
    }
    case 'heal': {
      const agentId = context.agentId(at, step.heal as string);
      const dead = context.agentFault(at, type, agentId);
      return { type, agentId, ...(dead === undefined ? {} : { dead }) };
    }
    case 'addAgents':
      return { type, agents: expandAgentGroup(context, at, step.addAgents as NonNullable<RawStep['addAgents']>) };
    case 'health': {
      const { id, model } = step.health as NonNullable<RawStep['health']>;
      return { type, runSpecId: context.runSpecId(childPointer(at, 'id'), id), model: healthModel(context, childPointer(at, 'model'), model) };
    }
    case 'taskModel': {
      const { id, model } = step.taskModel as NonNullable<RawStep['taskModel']>;
      return { type, runSpecId: context.runSpecId(childPointer(at, 'id'), id), model: taskModel(context, childPointer(at, 'model'), model) };
    }
    case 'schedulerFailover': {
      const failover = step.schedulerFailover as NonNullable<RawStep['schedulerFailover']>;
      return { type, downtimeMs: context.optionalDurationMs(childPointer(at, 'downtime'), failover.downtime) ?? DEFAULT_FAILOVER_DOWNTIME_MS };
    }
    case 'expect':
      return { type, expectation: convertExpectation(context, at, step.expect as NonNullable<RawStep['expect']>) };
    case 'note':
      return { type, text: step.note as string };
  }
}
