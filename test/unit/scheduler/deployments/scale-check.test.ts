import t from 'tap';
import type { CoreContext } from '../../../../src/scheduler/core-context';
import { withInstances } from '../../../../src/scheduler/groups/versioning';
import { findRunSpec } from '../../../../src/scheduler/groups/tree-query';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/*
 * Marathon's periodic scale check (`--scale_apps_interval`, 300 s): every run spec no deployment
 * holds is brought to the count the root holds (DeploymentManager.scaleCheck, a `scaleCheck`
 * timer). No command leaves a run spec apart from the root without a deployment (the stop-time
 * and restart checks cover the known ways: executor.test.ts, state/recover.test.ts), so these
 * tests part them by hand, in the core's state, as a defect would.
 */

/** The core's context (tests may reach internals): to part a run spec from the root as no command can. */
function coreOf(h: Harness): CoreContext {
  return (h.scheduler as unknown as { readonly ctx: CoreContext }).ctx;
}

/** The root says `instances` for /app while the run spec and its instances stay as they are; no deployment. */
function partFromRoot(h: Harness, instances: number): void {
  const ctx = coreOf(h);
  const spec = findRunSpec(ctx.state.root, '/app');
  if (spec === undefined) throw new Error('no /app');
  const change = ctx.groups.withRunSpec(ctx.state.root, withInstances(spec, instances, spec.version), ctx.state.root.version);
  if (!change.ok) throw new Error(change.message);
  ctx.state.root = change.root;
}

function running(h: Harness): number {
  return h.instances('/app').filter((i) => i.goal === 'Running').length;
}

const rows: readonly { readonly name: string; readonly from: number; readonly inRoot: number; readonly intervalMs?: number; readonly after: number }[] = [
  { name: 'a run spec short of the root\'s count is scaled up', from: 1, inRoot: 3, after: 3 },
  { name: 'one beyond it is scaled down', from: 3, inRoot: 1, after: 1 },
  { name: 'a shorter interval checks sooner', from: 1, inRoot: 2, intervalMs: 10_000, after: 2 },
  { name: 'interval 0: no periodic check', from: 1, inRoot: 3, intervalMs: 0, after: 1 },
];

for (const row of rows) {
  t.test(`the periodic scale check: ${row.name}`, async (t) => {
    const intervalMs = row.intervalMs ?? 300_000;
    const h = new Harness(row.intervalMs === undefined ? {} : { options: { scaleAppsIntervalMs: row.intervalMs } });
    t.equal(h.timers('scaleCheck').length, intervalMs > 0 ? 1 : 0, intervalMs > 0 ? 'armed at start' : 'never armed');
    h.deploy(makeApp({ instances: row.from }));
    t.same(h.scheduler.deployments(), [], 'deployed');
    partFromRoot(h, row.inRoot);
    const due = h.timers('scaleCheck')[0]?.dueMs ?? h.nowMs + 300_000;
    h.advanceTo(due - 1);
    t.equal(h.scheduler.runSpec('/app')?.instances, row.from, 'nothing before the check is due');
    h.advanceTo(due);
    t.equal(h.scheduler.runSpec('/app')?.instances, row.after, 'the run spec follows the root');
    t.equal(running(h), row.after, 'so do its instances');
    t.same(h.scheduler.deployments(), [], 'no deployment');
    if (intervalMs > 0) t.equal(h.timers('scaleCheck')[0]?.dueMs, due + intervalMs, 'armed again');
  });
}

t.test('the periodic scale check leaves a run spec a running deployment holds to that deployment', async (t) => {
  const h = new Harness();
  h.deploy(makeApp({ instances: 1 }));
  t.match(h.scale('/app', 2, {}), { ok: true });
  t.equal(h.scheduler.deployments().length, 1, 'the scale waits for an offer');
  partFromRoot(h, 5);
  h.advance(300_000);
  t.equal(h.scheduler.runSpec('/app')?.instances, 2, 'the deployment\'s count, not the root\'s');
  h.run(h.offer(makeOffer()));
  t.same(h.scheduler.deployments(), [], 'the deployment ends');
  h.advance(300_000);
  t.equal(h.scheduler.runSpec('/app')?.instances, 5, 'the next check, with nothing holding it, brings it to the root\'s count');
});
