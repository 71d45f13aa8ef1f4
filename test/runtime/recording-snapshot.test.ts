import t from 'tap';
import { emptyRoot } from '../../src/scheduler/groups/group-tree';
import type { StoredState } from '../../src/scheduler/ports/store';
import { snapshotLine, snapshotState, toTree } from '../../src/runtime/recording/recording-format';
import { rootWith } from '../builders/group-builders';
import { makeApp, makePod, versionAt } from '../builders/run-spec-builders';

/**
 * The flight recorder's snapshot (format 2, and 3 for deployments, 4 for their roots that are root versions): each run spec written once —
 * the root's, the root versions', the running deployments' roots' and `runSpecs`' entries that are
 * (by identity) stored versions become references —
 * and read back to the same stored state; a format 1 snapshot (everything whole) reads the same.
 */

const LABEL = 'x'.repeat(4096);
const a1 = makeApp({ id: '/g/a', version: versionAt(1), labels: { big: LABEL } });
const a2 = makeApp({ id: '/g/a', version: versionAt(2), instances: 3, labels: { big: LABEL } });
const pod = makePod({ id: '/g/p', version: versionAt(2) });
// Not a stored version (an old store's root may hold an app whole): written whole.
const loose = makeApp({ id: '/h/loose', version: versionAt(2), labels: { other: 'y'.repeat(100) } });
const root1 = rootWith(emptyRoot(versionAt(0)), versionAt(1), a1);
const root2 = rootWith(emptyRoot(versionAt(0)), versionAt(2), a2, pod, loose);

const STATE: StoredState = {
  root: root2,
  runSpecs: [a2, pod, loose],
  versions: [a1, a2, pod],
  rootVersions: [root1, root2],
  deployments: [{
    plan: { id: 'd1', originalVersion: versionAt(1), targetVersion: versionAt(2), steps: [{ actions: [{ action: 'ScaleApplication', runSpecId: '/g/a', kind: 'app' }] }], affectedRunSpecIds: ['/g/a'] },
    original: root1, target: root2, stepIndex: 0, startedAtMs: 5,
  }],
  instances: [],
  frameworkId: 'fw-1',
};

t.test('each stored version is written once; the state reads back the same', async (t) => {
  const line = snapshotLine(STATE);
  const record = JSON.parse(line) as { t: number; k: string; state: unknown };
  t.match(record, { t: 0, k: 'snapshot' });
  t.equal(line.split(LABEL).length - 1, 2, 'the 4 KB label twice: once in each of the two versions that hold it');
  t.equal(line.split('y'.repeat(100)).length - 1, 3, 'an app that is no stored version is written whole wherever it is (root, root version, runSpecs; the deployment refers to the root version)');
  t.match(line, '"original":{"$rootVersion":0},"target":{"$rootVersion":1}', "a deployment's roots that are root versions are references to them (format /4)");
  const back = snapshotState(record.state);
  t.same(back, STATE, 'the stored state, deep-equal');
  t.equal(back.deployments[0]?.target.groups.get('/g')?.apps.get('/g/a'), back.versions[1], "a deployment's roots refer to the versions too");
  t.equal(back.deployments[0]?.target, back.rootVersions[1], "and a deployment's root that was a root version reads back as that root version itself, as a store's load gives it");
  t.equal(back.root?.groups.get('/g')?.apps.get('/g/a'), back.versions[1], 'a reference reads back as the version object itself');
  t.equal(back.runSpecs[0], back.versions[1]);
});

t.test('formats 1 and 2 (every run spec whole, deployments whole) read the same; a reference to no version is refused', async (t) => {
  t.same(snapshotState(toTree(STATE)), STATE);
  const tree = JSON.parse(snapshotLine({ ...STATE, versions: [a1, a2, pod] })) as { state: { versions: unknown[] } };
  tree.state.versions.pop();
  t.throws(() => snapshotState(tree.state), /a reference to no stored version/);
});

t.test('size: the root versions no longer repeat every app', async (t) => {
  const apps = Array.from({ length: 50 }, (_, i) => makeApp({ id: `/big/a${i}`, version: versionAt(3), labels: { big: LABEL } }));
  const roots = Array.from({ length: 10 }, (_, v) => rootWith(emptyRoot(versionAt(0)), versionAt(4 + v), ...apps));
  const state: StoredState = { root: roots[9], runSpecs: apps, versions: apps, rootVersions: roots, deployments: [], instances: [] };
  const whole = JSON.stringify(toTree(state)).length;
  const line = snapshotLine(state).length;
  t.ok(line < 260 * 1024, `50 apps of 4 KB once each: ${line} characters`);
  t.ok(whole > 12 * line, `format 1 wrote them 12 times: ${whole} characters`);
});

/** 50 apps of 4 KB labels in 11 successive roots, and the 10 deployments between them (each from one root to the next). */
function deploymentChain(): { apps: ReturnType<typeof makeApp>[]; roots: ReturnType<typeof rootWith>[]; deployments: StoredState['deployments'][number][] } {
  const apps = Array.from({ length: 50 }, (_, i) => makeApp({ id: `/big/a${i}`, version: versionAt(3), labels: { big: LABEL } }));
  const roots = Array.from({ length: 11 }, (_, v) => rootWith(emptyRoot(versionAt(0)), versionAt(4 + v), ...apps));
  const deployments = roots.slice(1).map((target, i) => ({
    plan: { id: `d${i}`, originalVersion: roots[i].version, targetVersion: target.version, steps: [], affectedRunSpecIds: [] },
    original: roots[i], target, stepIndex: 0, startedAtMs: 5,
  }));
  return { apps, roots, deployments };
}

t.test("size: running deployments' roots no longer repeat every app (the snapshot had outgrown V8's longest string)", async (t) => {
  const { apps, roots, deployments } = deploymentChain();
  const state: StoredState = { root: roots[10], runSpecs: apps, versions: apps, rootVersions: [], deployments, instances: [] };
  const line = snapshotLine(state);
  const whole = JSON.stringify(toTree(state)).length;
  t.ok(line.length < 300 * 1024, `10 deployments among 50 apps of 4 KB, each app once: ${line.length} characters`);
  t.ok(whole > 12 * line.length, `formats 1 and 2 wrote each app 21 times: ${whole} characters`);
  t.same(snapshotState((JSON.parse(line) as { state: unknown }).state), state);
});

t.test('format /4: a deployment root that is not a root version object is written whole; a reference to no root version is refused', async (t) => {
  // The same content as root2 but another object (a root a restart recovered): not taken for the root version.
  const copy = { ...root2 };
  const state: StoredState = { ...STATE, deployments: [{ ...STATE.deployments[0], target: copy }] };
  const line = snapshotLine(state);
  t.match(line, '"original":{"$rootVersion":0},"target":{"id":"/"', 'the original by reference, the other object whole');
  t.same(snapshotState((JSON.parse(line) as { state: unknown }).state), state);
  const tree = JSON.parse(snapshotLine(STATE)) as { state: { rootVersions: unknown[] } };
  tree.state.rootVersions.pop();
  t.throws(() => snapshotState(tree.state), /a reference to no root version/);
});

t.test("size: deployments whose roots are root versions write no root again", async (t) => {
  const { apps, roots, deployments } = deploymentChain();
  const withRoots = snapshotLine({ root: roots[10], runSpecs: apps, versions: apps, rootVersions: roots, deployments, instances: [] }).length;
  const withoutDeployments = snapshotLine({ root: roots[10], runSpecs: apps, versions: apps, rootVersions: roots, deployments: [], instances: [] }).length;
  t.ok(withRoots - withoutDeployments < 10 * 400, `10 deployments add ${withRoots - withoutDeployments} characters (their plans and references, not 20 roots of 50 apps)`);
});
