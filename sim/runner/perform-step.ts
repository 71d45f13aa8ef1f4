import { isoTime, withRunSpec as putRunSpecInRoot, type Scheduler } from '../../src/scheduler/index';
import { isTerminalCondition } from '../../src/scheduler/model/condition';
import type { Command, CommandResult } from '../../src/scheduler/model/inputs';
import type { SimCluster } from '../cluster/sim-cluster';
import type { InvariantChecker } from '../invariants/invariant-checker';
import { evaluateExpectation } from '../scenario/evaluate-expectation';
import type { Action, Scenario, TimelineStep } from '../scenario/scenario';
import { convertDefinition } from './convert-definitions';
import { observe } from './observe';
import type { RunRecorder } from './run-recorder';
import type { Trace } from './trace';
import { VIRTUAL_EPOCH_MS } from './virtual-epoch';

/** What a timeline step may act on. `nowMs` is relative to the start of the run. */
export interface StepDeps {
  readonly scheduler: Scheduler;
  readonly cluster: SimCluster;
  readonly recorder: RunRecorder;
  readonly trace: Trace;
  readonly checker: InvariantChecker | undefined;
  readonly scenario: Scenario;
  readonly nowMs: number;
}

/** Executes one timeline step: a command to the core, a fault in the cluster, or an expectation. */
export function performStep(step: TimelineStep, deps: StepDeps): void {
  const a = step.action;
  deps.trace.append({ t: deps.nowMs, k: 'step', action: a.type, at: step.pointer });
  if (a.type === 'expect') {
    const outcome = evaluateExpectation(a.expectation, observe(deps.scheduler, deps.cluster, deps.recorder, deps.nowMs));
    deps.recorder.expectations.push({ atMs: deps.nowMs, line: step.line, passed: outcome.passed, lines: outcome.lines });
    deps.recorder.step(deps.nowMs, `expect: ${outcome.passed ? 'passed' : 'FAILED'}`);
    deps.trace.append({ t: deps.nowMs, k: 'expect', passed: outcome.passed });
    return;
  }
  if (a.type !== 'note') deps.checker?.disturbed(deps.nowMs);
  deps.recorder.step(deps.nowMs, act(a, deps));
}

function act(a: Exclude<Action, { type: 'expect' }>, deps: StepDeps): string {
  const { cluster } = deps;
  switch (a.type) {
    case 'app':
    case 'pod': {
      const result = convertDefinition(a.type, a.definition, deps.scenario.options.defaultRole, isoTime(VIRTUAL_EPOCH_MS + deps.nowMs));
      if (!result.ok) return `${a.type} ${a.runSpecId}: rejected: ${JSON.stringify(result.errors)}`;
      const put = command(deps, { type: 'putRunSpec', spec: result.spec, force: a.force });
      return `${a.type} ${a.runSpecId}: ${result.spec.instances} instance(s)${a.force ? ' (force)' : ''}: ${outcome(put)}`;
    }
    case 'deploy':
      return deploy(a, deps);
    case 'cancelDeployment': {
      const held = deps.scheduler.deployments().find((d) => d.deployment.plan.affectedRunSpecIds.includes(a.runSpecId));
      if (held === undefined) return `cancel the deployment of ${a.runSpecId}: none runs`;
      const id = held.deployment.plan.id;
      return `cancel deployment ${id} of ${a.runSpecId}${a.force ? ' (force)' : ''}: ${outcome(command(deps, { type: 'cancelDeployment', deploymentId: id, force: a.force }))}`;
    }
    case 'scale':
      return `scale ${a.runSpecId} to ${a.instances}${a.force ? ' (force)' : ''}: ${outcome(command(deps, { type: 'scale', runSpecId: a.runSpecId, instances: a.instances, force: a.force }))}`;
    case 'delete':
      return `delete ${a.runSpecId}: ${outcome(command(deps, { type: 'deleteRunSpec', runSpecId: a.runSpecId, force: a.force }))}`;
    case 'resetDelay':
      return `reset delay of ${a.runSpecId}: ${outcome(command(deps, { type: 'resetDelay', runSpecId: a.runSpecId }))}`;
    case 'kill':
      return kill(a, deps);
    case 'partition':
      cluster.partitionAgent(a.agentId);
      return `partition ${a.agentId}`;
    case 'heal':
      cluster.healAgent(a.agentId);
      // Known when the file loaded: the agent died while cut off, so the partition cannot end.
      return a.dead === undefined ? `heal ${a.agentId}` : `heal ${a.agentId}: warning: nothing to heal, the agent was killed while partitioned (the killAgent step ${stepAt(deps.scenario, a.dead.killedBy)})`;
    case 'killAgent':
      cluster.killAgent(a.agentId);
      return `kill agent ${a.agentId}`;
    case 'addAgents':
      for (const spec of a.agents) cluster.addAgent(spec);
      return `add agents ${a.agents.map((s) => s.agentId).join(', ')}`;
    case 'health':
      cluster.setHealthModel(a.runSpecId, a.model);
      return `health of ${a.runSpecId}: ${JSON.stringify(a.model)}`;
    case 'taskModel':
      cluster.setTaskModel(a.runSpecId, a.model);
      return `task model of ${a.runSpecId}: ${JSON.stringify(a.model)}`;
    case 'note':
      return `note: ${a.text}`;
    case 'schedulerFailover':
      // It replaces the core, which only the runner holds: run-scenario.ts performs it.
      throw new Error('a schedulerFailover step is performed by the runner, not by performStep');
  }
}

/** `at line N` of the step at a JSON pointer, or the pointer when lines are not known (a generated scenario). */
function stepAt(scenario: Scenario, pointer: string): string {
  const line = scenario.timeline.find((s) => pointer === s.pointer || pointer.startsWith(`${s.pointer}/`))?.line;
  return line === undefined ? pointer : `at line ${line}`;
}

/** Several run specs in one change of the root group: one deployment, ordered by dependencies. */
function deploy(a: Extract<Action, { type: 'deploy' }>, deps: StepDeps): string {
  const version = isoTime(VIRTUAL_EPOCH_MS + deps.nowMs);
  let root = deps.scheduler.root();
  for (const ref of a.definitions) {
    const result = convertDefinition(ref.kind, ref.definition, deps.scenario.options.defaultRole, version);
    if (!result.ok) return `deploy: ${ref.runSpecId} rejected: ${JSON.stringify(result.errors)}`;
    const change = putRunSpecInRoot(root, result.spec, { version, newGroupEnforceRole: 'off' });
    if (!change.ok) return `deploy: ${ref.runSpecId} refused: ${change.message}`;
    root = change.root;
  }
  const ids = a.definitions.map((d) => d.runSpecId).join(', ');
  return `deploy ${ids}${a.force ? ' (force)' : ''}: ${outcome(command(deps, { type: 'deploy', root, force: a.force }))}`;
}

function kill(a: Extract<Action, { type: 'kill' }>, deps: StepDeps): string {
  const live = deps.scheduler.instances(a.runSpecId)
    .filter((i) => i.goal === 'Running' && !isTerminalCondition(i.condition))
    .sort((x, y) => (x.instanceId < y.instanceId ? -1 : x.instanceId > y.instanceId ? 1 : 0));
  const victims = a.target.kind === 'count'
    ? live.slice(0, a.target.count)
    // An instance's agent: where it is placed, or, for a resident one waiting to relaunch on its
    // reservation (its agent lost or cut off), where its reservation is: `kill { agent, wipe }` is
    // how a file gives such an instance up, as Marathon's kill with wipe=true does.
    : live.filter((i) => (i.agent?.agentId ?? i.reservation?.agentId) === (a.target as { agentId: string }).agentId);
  const ids = victims.map((i) => i.instanceId);
  const result = command(deps, { type: 'killInstances', runSpecId: a.runSpecId, instanceIds: ids, scale: a.scale, wipe: a.wipe });
  const flags = `${a.scale ? ' (scale)' : ''}${a.wipe ? ' (wipe)' : ''}`;
  if (result?.ok === false && result.error === 'unknown-run-spec') {
    // Not created yet, or deleted: a no-op the core refuses, worded as the step asked it (as
    // `scale` and `delete` are), not as "kill 0 instance(s)" of a run spec that is not there.
    const asked = a.target.kind === 'count' ? `${a.target.count} instance(s)` : `the instances on ${a.target.agentId}`;
    return `kill ${asked} of ${a.runSpecId}${flags}: ${outcome(result)}, nothing killed`;
  }
  return `kill ${ids.length} instance(s) of ${a.runSpecId}${flags}: ${outcome(result)}`;
}

function command(deps: StepDeps, cmd: Command): CommandResult | undefined {
  return handleCommand(deps, cmd);
}

/** What a command needs besides the core: the trace, the oracles, the time (relative to the run). */
export type CommandDeps = Pick<StepDeps, 'scheduler' | 'trace' | 'checker' | 'nowMs'>;

/**
 * Hands one command to the core — from the timeline or, marked `from: 'api'`, from the REST API of
 * `--cluster sim` — traced, with the backoff oracle told what the command means for launch delays:
 * a reset delay, a user kill (relaunched without backoff), a new definition (a fresh delay).
 */
export function handleCommand(deps: CommandDeps, cmd: Command, from?: 'api'): CommandResult | undefined {
  deps.trace.append(from === undefined ? { t: deps.nowMs, k: 'cmd', type: cmd.type } : { t: deps.nowMs, k: 'cmd', type: cmd.type, from });
  const backoff = deps.checker?.backoff;
  if (cmd.type === 'resetDelay') backoff?.reset(cmd.runSpecId);
  if (cmd.type === 'killInstances' && !cmd.scale && !cmd.wipe) {
    // Only launched ones: a plain kill of an instance waiting for an offer changes nothing, and its
    // later failure is a failure (swarm seed 30157).
    backoff?.markUserKilled(cmd.instanceIds.filter((id) => deps.scheduler.instance(id)?.condition !== 'Scheduled'));
  }
  const result = deps.scheduler.handle(cmd);
  if (cmd.type === 'putRunSpec' && result?.ok === true) backoff?.reset(cmd.spec.id);
  return result;
}

/** A command's result as the run summary words it. */
export function outcome(result: ReturnType<Scheduler['handle']>): string {
  if (result === undefined) return 'ok';
  if (result.ok) return result.deploymentId === undefined ? 'ok' : `deployment ${result.deploymentId}`;
  // Marathon's 422 says only "Object is not valid"; what is not valid is in its details.
  const details = (result.details ?? []).map((d) => `${d.path}: ${d.errors.join('; ')}`).join('; ');
  return `refused (${result.error}: ${result.message}${details === '' ? '' : ` (${details})`})`;
}
