import type { ApiDeps } from '../api-deps';
import { allGroups } from '../../scheduler/index';
import { CONDITIONS, type Condition } from '../../scheduler/model/condition';
import type { MetricsRegistry } from './metrics-registry';

/** What the gauges report, counted in one pass per snapshot. */
interface Census {
  apps: number;
  pods: number;
  groups: number;
  deployments: number;
  byCondition: Map<Condition, number>;
}

/**
 * Gauges over the scheduler's state, counted once per snapshot: Marathon 1.11's
 * `marathon.apps.active.gauge`, `marathon.pods.active.gauge`, `marathon.groups.active.gauge`
 * (the root group included), `marathon.deployments.active.gauge`, `marathon.instances.running.gauge`,
 * `marathon.instances.staged.gauge`, `marathon.uptime.gauge.seconds` and
 * `marathon.leadership.duration.gauge.seconds` (a single pacer node leads from the start; with HA,
 * since this node was last elected), plus
 * pacer's `marathon.instances.condition.<condition>.gauge` for every instance condition.
 */
export function registerSchedulerGauges(registry: MetricsRegistry, deps: ApiDeps): void {
  // Counted at each snapshot only: with HA a standby has no scheduler until it leads.
  let census: Census = { apps: 0, pods: 0, groups: 0, deployments: 0, byCondition: new Map() };
  registry.onSnapshot(() => {
    census = takeCensus(deps);
  });
  registry.gauge('marathon.apps.active.gauge', 'Apps defined', () => census.apps);
  registry.gauge('marathon.pods.active.gauge', 'Pods defined', () => census.pods);
  registry.gauge('marathon.groups.active.gauge', 'Groups defined, the root group included', () => census.groups);
  registry.gauge('marathon.deployments.active.gauge', 'Deployments running', () => census.deployments);
  registry.gauge('marathon.instances.running.gauge', 'Instances running', () => census.byCondition.get('Running') ?? 0);
  registry.gauge('marathon.instances.staged.gauge', 'Instances staging', () => census.byCondition.get('Staging') ?? 0);
  for (const condition of CONDITIONS) {
    registry.gauge(`marathon.instances.condition.${kebab(condition)}.gauge`, `Instances in condition ${condition}`, () => census.byCondition.get(condition) ?? 0);
  }
  registry.gauge('marathon.uptime.gauge.seconds', 'Seconds since the API started serving', () => deps.uptimeMs() / 1000);
  registry.gauge('marathon.leadership.duration.gauge.seconds', 'Seconds this node has been the leader', () => (deps.leadershipMs ?? deps.uptimeMs)() / 1000);
}

function takeCensus(deps: ApiDeps): Census {
  const root = deps.scheduler.root();
  const census: Census = { apps: 0, pods: 0, groups: 0, deployments: deps.scheduler.runningPlans().length, byCondition: new Map() };
  for (const group of allGroups(root)) {
    census.groups++;
    census.apps += group.apps.size;
    census.pods += group.pods.size;
  }
  for (const spec of deps.scheduler.runSpecs()) {
    for (const instance of deps.scheduler.instances(spec.id)) {
      census.byCondition.set(instance.condition, (census.byCondition.get(instance.condition) ?? 0) + 1);
    }
  }
  return census;
}

/** `UnreachableInactive` → `unreachable-inactive`. */
function kebab(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}
