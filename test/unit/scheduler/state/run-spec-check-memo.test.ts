import t from 'tap';
import { rememberingRunSpecCheck, runSpecProblem } from '../../../../src/scheduler/state/stored/run-spec-check';
import { rememberingRootCheck, rootProblem } from '../../../../src/scheduler/state/stored/group-check';
import { deploymentProblem } from '../../../../src/scheduler/state/stored/deployment-check';
import { emptyRoot } from '../../../../src/scheduler/groups/group-tree';
import { rootWith } from '../../../builders/group-builders';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';

/**
 * Recovery judges each stored run spec object once, however many root versions hold it
 * (`rememberingRunSpecCheck`), with the same verdict as `runSpecProblem` for every input.
 */

/** `value` behind a proxy that counts the reads of its fields. */
function counted<T extends object>(value: T): { proxy: T; reads: () => number } {
  let n = 0;
  const proxy = new Proxy(value, { get: (target, key, receiver) => { n++; return Reflect.get(target, key, receiver) as unknown; } });
  return { proxy, reads: () => n };
}

const CASES: readonly { readonly name: string; readonly value: unknown; readonly kind?: 'app' | 'pod' }[] = [
  { name: 'a sound app', value: makeApp() },
  { name: 'a sound app where an app is expected', value: makeApp(), kind: 'app' },
  { name: 'a sound app where a pod is expected', value: makeApp(), kind: 'pod' },
  { name: 'a sound pod', value: makePod(), kind: 'pod' },
  { name: 'an app with instances out of range', value: { ...makeApp(), instances: -1 } },
  { name: 'not an object', value: 'app' },
  { name: 'null', value: null },
];

t.test('the same verdict as runSpecProblem, asked once or twice', async (t) => {
  for (const c of CASES) {
    const check = rememberingRunSpecCheck();
    const expected = runSpecProblem(c.value, '$.x', c.kind);
    t.equal(check(c.value, '$.x', c.kind), expected, `${c.name}: first`);
    t.equal(check(c.value, '$.y', c.kind), runSpecProblem(c.value, '$.y', c.kind), `${c.name}: again, with its own path`);
  }
  const check = rememberingRunSpecCheck();
  const app = makeApp();
  t.equal(check(app, '$', 'app'), undefined);
  t.match(check(app, '$.apps</app>', 'pod'), /\$\.apps<\/app>\.kind: expected pod/, 'a remembered app is still not a pod');
});

t.test('an object found sound is not read again; a root version that holds it judges it once', async (t) => {
  const { proxy, reads } = counted(makeApp({ id: '/g/a', version: versionAt(1) }));
  const check = rememberingRunSpecCheck();
  t.equal(check(proxy), undefined);
  const first = reads();
  t.ok(first > 10, `judging it read its fields (${first})`);
  t.equal(check(proxy, '$', 'app'), undefined);
  t.equal(reads() - first, 1, 'asked again as an app: only its kind is read');

  const app = makeApp({ id: '/g/a', version: versionAt(1) });
  const roots = [1, 2, 3].map((v) => rootWith(emptyRoot(versionAt(0)), versionAt(v), app));
  const memo = rememberingRunSpecCheck();
  let calls = 0;
  const spy = (value: unknown, at?: string, kind?: 'app' | 'pod'): string | undefined => { calls++; return memo(value, at, kind); };
  for (const root of roots) t.equal(rootProblem(root, '$', spy), undefined);
  t.equal(calls, 3, 'each root asks the check it is given about its app');
  const plain = counted(app);
  const once = rememberingRunSpecCheck();
  once(plain.proxy);
  const after = plain.reads();
  once(plain.proxy, '$', 'app');
  once(plain.proxy, '$', 'app');
  t.equal(plain.reads() - after, 2, 'two more roots: two reads of its kind, no judgement');
});

t.test('rememberingRootCheck: a root object found sound is judged once however many deployments hold it; a problem keeps its own path', async (t) => {
  const app = makeApp({ id: '/g/a', version: versionAt(1) });
  const root = rootWith(emptyRoot(versionAt(0)), versionAt(1), app);
  let calls = 0;
  const spy = (value: unknown, at?: string, kind?: 'app' | 'pod'): string | undefined => { calls++; return runSpecProblem(value, at, kind); };
  const check = rememberingRootCheck(spy);
  t.equal(check(root, '$'), undefined);
  t.equal(calls, 1, 'its app judged once');
  // The same object as a deployment's original and target (store format 8 loads them so).
  const deployment = {
    plan: { id: 'd1', originalVersion: root.version, targetVersion: root.version, steps: [], affectedRunSpecIds: [] },
    original: root, target: root, stepIndex: 0, startedAtMs: 0,
  };
  t.equal(deploymentProblem(deployment, '$', spy, check), undefined);
  t.equal(calls, 1, 'not judged again for the deployment');
  t.equal(deploymentProblem(deployment, '$', spy), undefined, 'without the memo, the same verdict');
  t.equal(calls, 3, 'judged again for each end');
  const bad = rootWith(emptyRoot(versionAt(0)), versionAt(2), { ...app, instances: -1 });
  const first = check(bad, '$');
  t.ok(first !== undefined && first.startsWith('$.'), `an unsound root: ${first ?? ''}`);
  t.equal(deploymentProblem({ ...deployment, original: bad }, '$', spy, check), rootProblem(bad, '$.original', spy), 'judged again, its problem at its own path');
});
