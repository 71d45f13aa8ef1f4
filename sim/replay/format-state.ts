import type { Scheduler } from '../../src/scheduler/index';
import { formatMs } from '../runner/format-ms';
import { conditionCounts, conditionCountsText } from '../runner/run-recorder';

/** Instances listed per run spec at most (the counts by condition cover them all). */
export const INSTANCE_LINES_MAX = 20;


/**
 * The replayed core's state at an instant, for incident analysis (`replay --until`): apps and
 * pods (the target instance count, the instances the core holds by condition — `target 1;
 * instances 1: Scheduled 1` is one instance waiting for an offer —, version), instances
 * (condition, agent, health; the first {@link INSTANCE_LINES_MAX}), running deployments (step, what
 * each action waits for) and the launch queue (waiting instances, backoff). `epochMs` makes
 * instants relative to the start of the recording.
 */
export function formatState(scheduler: Scheduler, epochMs: number): string[] {
  const lines: string[] = [];
  const specs = scheduler.runSpecs();
  lines.push(`run specs (${specs.length}):`);
  for (const spec of specs) {
    const instances = scheduler.instances(spec.id);
    lines.push(`  ${spec.id}  target ${spec.instances}; instances ${instances.length}: ${conditionCountsText(conditionCounts(instances)) || 'none'}  version ${spec.version}`);
    for (const i of instances.slice(0, INSTANCE_LINES_MAX)) {
      const health = i.healthy === undefined ? '' : i.healthy ? '  healthy' : '  unhealthy';
      lines.push(`    ${i.instanceId}  ${i.condition}  on ${i.agent?.agentId ?? '(not placed)'}${health}`);
    }
    if (instances.length > INSTANCE_LINES_MAX) lines.push(`    … ${instances.length - INSTANCE_LINES_MAX} more instances`);
  }
  const deployments = scheduler.deployments();
  lines.push(`deployments (${deployments.length}):`);
  for (const { deployment, actions } of deployments) {
    const plan = deployment.plan;
    lines.push(`  ${plan.id}  step ${deployment.stepIndex + 1}/${plan.steps.length}  started at ${formatMs(deployment.startedAtMs - epochMs)}`);
    for (const a of actions) {
      const w = a.waitingFor;
      const waits = a.done ? '  done' : `  waiting for: ${w.unplaced} unplaced, ${w.notHealthy} not healthy, ${w.notReady} not ready, ${w.toReplace} to replace`;
      lines.push(`    ${a.action.action} ${a.action.runSpecId}${waits}`);
    }
  }
  const queue = scheduler.queue();
  lines.push(`launch queue (${queue.length}):`);
  for (const entry of queue) {
    const rejections = Object.entries(entry.stats.byReason()).map(([r, n]) => `${r} ${n}`).join(', ');
    const backoff = entry.backoffUntilMs === undefined ? '' : `  delayed until ${formatMs(entry.backoffUntilMs - epochMs)}`;
    lines.push(`  ${entry.runSpec.id}  ${entry.scheduled} waiting${backoff}${rejections === '' ? '' : `  offers rejected: ${rejections}`}`);
  }
  return lines;
}
