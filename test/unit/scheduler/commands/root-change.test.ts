import t from 'tap';
import { makeApp, makePod } from '../../../builders/run-spec-builders';
import { Harness, START_MS } from '../../../harness/core-harness';
import { findGroup, findRunSpec } from '../../../../src/scheduler/groups/tree-query';
import type { CommandResult, RootChange } from '../../../../src/scheduler/model/inputs';
import { CYCLIC_DEPENDENCIES_MESSAGE } from '../../../../src/scheduler/groups/dependencies';
import { MAX_INSTANCES } from '../../../../src/scheduler/model/run-spec-limits';

/*
 * Only the core edits the root (issue 12 R2): the groups API and bulk app updates submit a
 * RootChange; the core stamps the versions, edits the tree, applies its rules and deploys. These
 * are the core's answers, one row per rule.
 */

const iso = (ms: number): string => new Date(ms).toISOString();
const change = (h: Harness, c: RootChange, force = false): CommandResult | undefined => h.handle({ type: 'changeRoot', change: c, force });

/** A harness with `/dev/a` (2 instances) and `/dev/sub/b` deployed at START_MS (version START_MS + 1: after the empty root's), the clock 10 s later. */
function seeded(): Harness {
  const h = new Harness();
  change(h, { kind: 'putRunSpecs', specs: [makeApp({ id: '/dev/a', instances: 2 }), makeApp({ id: '/dev/sub/b' })] });
  h.advance(10_000);
  return h;
}

t.test('refusals: one row per rule, nothing changes', async (t) => {
  const rows: { name: string; change: RootChange; result: CommandResult }[] = [
    { name: 'scale of an unknown group', change: { kind: 'scaleGroup', groupId: '/nope', factor: 2 },
      result: { ok: false, error: 'unknown-run-spec', message: "Group '/nope' does not exist" } },
    { name: 'removal of an unknown group', change: { kind: 'removeGroup', groupId: '/nope' },
      result: { ok: false, error: 'unknown-run-spec', message: "Group '/nope' does not exist" } },
    { name: 'scale past MAX_INSTANCES', change: { kind: 'scaleGroup', groupId: '/dev', factor: MAX_INSTANCES },
      result: { ok: false, error: 'invalid', message: 'Object is not valid',
        details: [{ path: '/scaleBy', errors: [`scales /dev/a to ${2 * MAX_INSTANCES} instances, more than ${MAX_INSTANCES}`] }] } },
    { name: 'revert to a version without the group', change: { kind: 'revertGroup', groupId: '/other', version: iso(START_MS) },
      result: { ok: false, error: 'illegal-argument', message: `Group /other not available in version ${iso(START_MS)}` } },
    { name: 'a group where an app is (fact 76)', change: { kind: 'updateGroup', update: { id: '/dev/a', apps: [] } },
      result: { ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: ['Groups and Applications may not have the same identifier.'] }] } },
    { name: 'a dependency cycle (fact 74)', change: { kind: 'updateGroup', update: { id: '/dev', dependencies: ['/dev/sub'], groups: [{ id: '/dev/sub', dependencies: ['/dev'] }] } },
      result: { ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: [CYCLIC_DEPENDENCIES_MESSAGE] }] } },
    { name: 'a dependency cycle of a bulk app update (the same check and message)',
      change: { kind: 'putRunSpecs', specs: [makeApp({ id: '/dev/x', dependencies: ['/dev/y'] }), makeApp({ id: '/dev/y', dependencies: ['/dev/x'] })] },
      result: { ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: [CYCLIC_DEPENDENCIES_MESSAGE] }] } },
  ];
  for (const row of rows) {
    const h = seeded();
    const before = h.scheduler.root();
    t.same(change(h, row.change, true), row.result, row.name);
    t.equal(h.scheduler.root(), before, `${row.name}: the root is unchanged`);
    t.same(h.scheduler.previewChange(row.change), row.result, `${row.name}: a dry run gives the same answer`);
  }
});

t.test('versions: the core stamps one root version, after the current one; unchanged apps keep theirs', async (t) => {
  // A fresh core's root has Marathon's empty-root version (the epoch): the first change takes the clock's now.
  const h = new Harness();
  t.equal(h.scheduler.root().version, '1970-01-01T00:00:00.000Z');
  t.match(change(h, { kind: 'putRunSpecs', specs: [makeApp({ id: '/dev/a', instances: 2 }), makeApp({ id: '/dev/sub/b' })] }), { ok: true, version: iso(START_MS) });
  const a = findRunSpec(h.scheduler.root(), '/dev/a');
  // Same definition again plus a new app, in the millisecond of the current root: the version moves on by 1 ms.
  const rootMs = START_MS;
  const result = change(h, { kind: 'updateGroup', update: { id: '/dev', apps: [makeApp({ id: '/dev/a', instances: 2, version: 'ignored' }), makeApp({ id: '/dev/c' })] } }, true);
  t.match(result, { ok: true, version: iso(rootMs + 1) }, 'the root version is strictly later');
  const root = h.scheduler.root();
  t.equal(findRunSpec(root, '/dev/a')?.version, a?.version, 'an unchanged app keeps its version (fact 70)');
  t.equal(findRunSpec(root, '/dev/c')?.version, iso(rootMs + 1), 'a new app gets the change version');
  t.ok(findGroup(root, '/dev/sub'), 'an update without `groups` keeps the subgroups');
});

t.test('scaleGroup: a scale-only change of every app below; pods left alone (fact 71)', async (t) => {
  const h = seeded();
  change(h, { kind: 'putRunSpecs', specs: [] });
  h.handle({ type: 'putRunSpec', spec: makePod({ id: '/dev/p' }), force: true });
  h.advance(1_000);
  const now = START_MS + 11_000;
  t.match(change(h, { kind: 'scaleGroup', groupId: '/dev', factor: 1.5 }, true), { ok: true, version: iso(now) });
  const root = h.scheduler.root();
  t.match(findRunSpec(root, '/dev/a'), { instances: 3, version: iso(now), versionInfo: { lastScalingAt: iso(now), lastConfigChangeAt: iso(START_MS) } });
  t.match(findRunSpec(root, '/dev/sub/b'), { instances: 2 }, 'ceil(1 × 1.5)');
  t.match(findRunSpec(root, '/dev/p'), { instances: 1 }, 'pods are not scaled');
});

t.test('revertGroup: the group as at a stored root version; a changed app is stamped anew', async (t) => {
  const h = seeded();
  const first = h.scheduler.root().version;
  change(h, { kind: 'scaleGroup', groupId: '/dev', factor: 3 }, true);
  h.advance(1_000);
  const result = change(h, { kind: 'revertGroup', groupId: '/dev', version: first }, true);
  t.match(result, { ok: true });
  t.match(findRunSpec(h.scheduler.root(), '/dev/a'), { instances: 2, version: iso(START_MS + 11_000) });
});

t.test('removeGroup and putRunSpecs: one deployment each; a bulk element sees the earlier one', async (t) => {
  const h = seeded();
  const bulk = change(h, { kind: 'putRunSpecs', specs: [makeApp({ id: '/x', instances: 1 }), makeApp({ id: '/x', instances: 4 })] }, true);
  t.match(bulk, { ok: true, deploymentId: String });
  t.match(findRunSpec(h.scheduler.root(), '/x'), { instances: 4 });
  t.match(change(h, { kind: 'removeGroup', groupId: '/dev' }, true), { ok: true, deploymentId: String });
  t.equal(findGroup(h.scheduler.root(), '/dev'), undefined);
});

t.test('setEnforceRole: the root keeps its version; the default is --new_group_enforce_role', async (t) => {
  const h = new Harness({ options: { newGroupEnforceRole: 'top' } });
  change(h, { kind: 'updateGroup', update: { id: '/dev', enforceRole: false } });
  const version = h.scheduler.root().version;
  t.match(h.handle({ type: 'setEnforceRole', groupId: '/dev' }), { ok: true });
  t.equal(findGroup(h.scheduler.root(), '/dev')?.enforceRole, true);
  t.equal(h.scheduler.root().version, version);
  t.same(h.handle({ type: 'setEnforceRole', groupId: '/dev', enforceRole: true }), { ok: true }, 'no change: nothing deployed');
  t.same(h.handle({ type: 'setEnforceRole', groupId: '/dev/x', enforceRole: true }),
    { ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: ['Path needs to be top-level'] }] });
});

t.test('previewChange plans with the core planner and changes nothing', async (t) => {
  const h = seeded();
  const before = h.scheduler.root();
  const preview = h.scheduler.previewChange({ kind: 'scaleGroup', groupId: '/dev', factor: 2 });
  t.ok(preview.ok);
  if (!preview.ok) return;
  t.equal(preview.plan.id, 'dry-run');
  t.same(preview.plan.steps.flatMap((s) => s.actions.map((a) => [a.action, a.runSpecId])), [['ScaleApplication', '/dev/a'], ['ScaleApplication', '/dev/sub/b']]);
  t.equal(h.scheduler.root(), before);
  t.equal(h.scheduler.runningPlans().length, 1, 'only the seeding deployment runs');
});

t.test('previewChange assigns dynamic service ports as the change would: a dry run shows the plan the change gets', async (t) => {
  // The clean-clone trial of 2026-12-01: PUT /v2/groups/g?dryRun=true with the group's own app
  // definition (`portDefinitions: [{port: 0}]`, as Marathon fills it in) answered RestartApplication,
  // while the same PUT made restarted nothing (the app keeps its assigned port).
  const dynamic = (instances: number) => makeApp({ id: '/dev/web', instances, portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default', labels: {} }] });
  const rows: { name: string; update: RootChange; actions: [string, string][] }[] = [
    { name: 'the same definition', update: { kind: 'updateGroup', update: { id: '/dev', apps: [dynamic(1)] } }, actions: [] },
    { name: 'a scale', update: { kind: 'updateGroup', update: { id: '/dev', apps: [dynamic(3)] } }, actions: [['ScaleApplication', '/dev/web']] },
    { name: 'a bulk put of the same definition', update: { kind: 'putRunSpecs', specs: [dynamic(1)] }, actions: [] },
  ];
  for (const row of rows) {
    const h = new Harness();
    change(h, { kind: 'putRunSpecs', specs: [dynamic(1)] });
    h.advance(10_000);
    t.match(findRunSpec(h.scheduler.root(), '/dev/web'), { portDefinitions: [{ port: 10000 }] }, 'the port was assigned');
    const preview = h.scheduler.previewChange(row.update);
    t.ok(preview.ok, row.name);
    if (!preview.ok) continue;
    t.match(findRunSpec(preview.root, '/dev/web'), { portDefinitions: [{ port: 10000 }] }, `${row.name}: the previewed root keeps the assigned port`);
    const previewed = preview.plan.steps.flatMap((s) => s.actions.map((a) => [a.action, a.runSpecId]));
    t.same(previewed, row.actions, `${row.name}: the dry run's plan`);
    const made = change(h, row.update, true);
    t.match(made, { ok: true }, `${row.name}: made`);
    // A plan with nothing to do ends at once; one with work waits for offers the harness never makes.
    const plan = made?.ok === true ? h.scheduler.runningPlans().find((p) => p.id === made.deploymentId) : undefined;
    const madeActions = plan === undefined ? [] : plan.steps.flatMap((s) => s.actions.map((a) => [a.action, a.runSpecId]));
    t.same(madeActions, row.actions, `${row.name}: the plan made is the dry run's`);
  }
});
