import t from 'tap';
import seedrandom from 'seedrandom';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { GroupResult } from '../../../../src/scheduler/groups/group-result';
import { allRunSpecs, emptyRoot, findRunSpec, withRunSpec, withoutRunSpec } from '../../../../src/scheduler/groups/root-group';
import { DEFAULT_MAX_VERSIONS, VersionHistory } from '../../../../src/scheduler/groups/version-history';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';

/** The change options of a root edit made at `versionAt(n)`. */
function opts(n: number): { readonly version: string; readonly newGroupEnforceRole: 'off' } {
  return { version: versionAt(n), newGroupEnforceRole: 'off' };
}

function ok(r: GroupResult): Group {
  if (!r.ok) throw new Error(`${r.error}: ${r.message}`);
  return r.root;
}

t.test('records versions per id, newest first, bounded by --zk_max_versions', async (t) => {
  t.equal(DEFAULT_MAX_VERSIONS, 50);
  t.equal(new VersionHistory().maxVersions, 50);
  const h = new VersionHistory(3);
  for (let i = 0; i < 5; i++) h.record(makeApp({ id: '/a', instances: i, version: versionAt(i) }));
  h.record(makeApp({ id: '/b', version: versionAt(9) }));
  t.same(h.list('/a'), [versionAt(4), versionAt(3), versionAt(2)], 'the two oldest are gone');
  t.equal(h.get('/a', versionAt(3))?.instances, 3);
  t.equal(h.get('/a', versionAt(0)), undefined, 'dropped');
  t.same(h.entries('/a').map((e) => [e.version, e.spec.instances]), [[versionAt(4), 4], [versionAt(3), 3], [versionAt(2), 2]]);
  t.same(h.list('/b'), [versionAt(9)], 'each id has its own bound');
  t.same(h.list('/none'), []);
  t.same(h.entries('/none'), []);
  t.equal(h.get('/none', versionAt(0)), undefined);
  t.notOk(h.has('/none'));
});

t.test('recording a stored version again replaces it and makes it the newest', async (t) => {
  const h = new VersionHistory(3);
  h.record(makeApp({ id: '/a', version: versionAt(1) }));
  h.record(makeApp({ id: '/a', version: versionAt(2) }));
  h.record(makeApp({ id: '/a', version: versionAt(1), instances: 7 }));
  t.same(h.list('/a'), [versionAt(1), versionAt(2)]);
  t.equal(h.get('/a', versionAt(1))?.instances, 7);
});

t.test('pod history is tied to the pod id and survives delete and re-create (spec rule 12)', async (t) => {
  const h = new VersionHistory();
  let root = emptyRoot(versionAt(0));
  const first = makePod({ id: '/g/p', version: versionAt(1) });
  root = ok(withRunSpec(root, first, opts(1)));
  h.recordAll(root, allRunSpecs(root));
  root = ok(withoutRunSpec(root, '/g/p', opts(2)));
  h.recordRoot(root);
  t.equal(findRunSpec(root, '/g/p'), undefined, 'deleted');
  t.ok(h.has('/g/p'), 'history kept after delete');
  const other = makePod({ id: '/g/p', version: versionAt(3), containers: [{ name: 'different', cpus: 1 }] });
  root = ok(withRunSpec(root, other, opts(3)));
  h.recordAll(root, allRunSpecs(root));
  t.same(h.list('/g/p'), [versionAt(3), versionAt(1)], 'the new pod inherits the earlier history although its definition differs');
  t.equal(h.get('/g/p', versionAt(1)), first);
  t.equal(h.get('/g/p', versionAt(3)), other);
  t.same(h.rootVersions(), [versionAt(3), versionAt(2), versionAt(1)]);
  t.equal(findRunSpec(h.getRoot(versionAt(1)) as Group, '/g/p'), first, 'old roots are kept whole');
  t.equal(h.getRoot(versionAt(2))?.version, versionAt(2));
  t.equal(h.getRoot(versionAt(99)), undefined);
});

t.test('root versions are bounded too', async (t) => {
  const h = new VersionHistory(2);
  for (let i = 0; i < 4; i++) h.recordRoot(emptyRoot(versionAt(i)));
  t.same(h.rootVersions(), [versionAt(3), versionAt(2)]);
  t.equal(h.getRoot(versionAt(0)), undefined);
});

t.test('the bound must be a positive integer', async (t) => {
  t.throws(() => new VersionHistory(0), /positive integer/);
  t.throws(() => new VersionHistory(1.5), /positive integer/);
  t.doesNotThrow(() => new VersionHistory(1));
});

/** A listener that records what the durable store would be told to delete. */
function evictions(h: VersionHistory): string[] {
  const out: string[] = [];
  h.listener = {
    savedRunSpecVersion: () => undefined,
    evictedRunSpecVersion: (id, version) => void out.push(`${id}@${version}`),
    savedRootVersion: () => undefined,
    evictedRootVersion: () => undefined,
  };
  return out;
}

t.test("a deleted app's versions go once no kept root version holds it (Marathon's GcActor); a pod's stay (rule 12)", async (t) => {
  const h = new VersionHistory(3);
  const told = evictions(h);
  let root = emptyRoot(versionAt(0));
  root = ok(withRunSpec(root, makeApp({ id: '/g/a', version: versionAt(1) }), opts(1)));
  root = ok(withRunSpec(root, makePod({ id: '/g/p', version: versionAt(1) }), opts(1)));
  h.recordAll(root, allRunSpecs(root));
  root = ok(withRunSpec(root, makeApp({ id: '/g/a', instances: 2, version: versionAt(2) }), opts(2)));
  h.recordAll(root, [findRunSpec(root, '/g/a') as RunSpec]);
  root = ok(withoutRunSpec(ok(withoutRunSpec(root, '/g/a', opts(3))), '/g/p', opts(3)));
  h.recordRoot(root);
  t.same(h.list('/g/a'), [versionAt(2), versionAt(1)], 'kept after delete while kept roots hold the app');
  root = { ...root, version: versionAt(4) };
  h.recordRoot(root);
  t.same(h.list('/g/a'), [versionAt(2), versionAt(1)], 'the root of version 2 still holds it');
  t.same(told, []);
  root = { ...root, version: versionAt(5) };
  h.recordRoot(root);
  t.same(h.rootVersions(), [versionAt(5), versionAt(4), versionAt(3)], 'no kept root holds /g/a any more');
  t.same(h.list('/g/a'), [], 'its versions are gone');
  t.notOk(h.has('/g/a'));
  t.same(told, [`/g/a@${versionAt(1)}`, `/g/a@${versionAt(2)}`], 'and the store is told to delete each');
  t.same(h.list('/g/p'), [versionAt(1)], "the pod's history stays with its id");
});

t.test('creating and deleting distinct apps without end keeps a bounded history', async (t) => {
  const h = new VersionHistory(5);
  let root = emptyRoot(versionAt(0));
  let n = 1;
  const sizes: number[] = [];
  for (let round = 0; round < 200; round++) {
    const ids = [0, 1, 2].map((i) => `/r${round}/app${i}`);
    for (const id of ids) root = ok(withRunSpec(root, makeApp({ id, version: versionAt(n) }), opts(n)));
    h.recordAll(root, ids.map((id) => findRunSpec(root, id) as RunSpec));
    n++;
    for (const id of ids) root = ok(withoutRunSpec(root, id, opts(n)));
    h.recordRoot(root);
    n++;
    sizes.push(h.idsWithVersions);
  }
  // 5 kept roots span 2.5 rounds of 3 apps each.
  t.ok(Math.max(...sizes) <= 9, `ids with versions stay bounded (${Math.max(...sizes)} at most, 600 created)`);
});

t.test('recovery drops the versions of apps no kept root and not the current root holds', async (t) => {
  const h = new VersionHistory(3);
  const withApp = ok(withRunSpec(emptyRoot(versionAt(0)), makeApp({ id: '/live', version: versionAt(1) }), opts(1)));
  // As an older store holds them: the versions of /gone, whose roots are long gone, and /live,
  // whose root the store holds as the current root only.
  h.recordRoot(emptyRoot(versionAt(2)));
  h.record(makeApp({ id: '/gone', version: versionAt(1) }));
  h.record(findRunSpec(withApp, '/live') as RunSpec);
  h.record(makePod({ id: '/pod', version: versionAt(1) }));
  const told = evictions(h);
  t.same(h.dropUnheldApps(withApp), [{ runSpecId: '/gone', version: versionAt(1) }], 'returned for the caller to delete from the store');
  t.same(told, [], 'the listener is not told');
  t.notOk(h.has('/gone'));
  t.same(h.list('/live'), [versionAt(1)], 'an app of the current root keeps its versions');
  t.same(h.list('/pod'), [versionAt(1)], 'a pod keeps its history');
});

t.test('every version a recorded root holds is stored, also one no deployment action recorded (the store\'s roots refer to them)', async (t) => {
  const h = new VersionHistory();
  const saved: string[] = [];
  h.listener = {
    savedRunSpecVersion: (spec) => saved.push(`${spec.id}@${spec.version}`),
    evictedRunSpecVersion: () => undefined,
    savedRootVersion: (root) => saved.push(`root@${root.version}`),
    evictedRootVersion: () => undefined,
  };
  const v1 = makeApp({ id: '/g/a', instances: 1, version: versionAt(1) });
  const first = ok(withRunSpec(emptyRoot(versionAt(0)), v1, opts(1)));
  h.record(v1);
  h.recordRoot(first);
  // A scale to the count it had: a new version of the app in the root, no action to record it (swarm seed 3 lost its root at failover).
  const v2 = { ...v1, version: versionAt(2) };
  const pod = makePod({ id: '/p', version: versionAt(2) });
  const second = ok(withRunSpec(ok(withRunSpec(first, v2, opts(2))), pod, opts(2)));
  h.recordRoot(second);
  t.equal(h.get('/g/a', versionAt(2)), v2, 'the app\'s new version');
  t.equal(h.get('/p', versionAt(2)), pod, 'a pod the root gained');
  t.same(saved, [`/g/a@${versionAt(1)}`, `root@${versionAt(1)}`, `/p@${versionAt(2)}`, `/g/a@${versionAt(2)}`, `root@${versionAt(2)}`], 'each stored before the root that refers to it, once (the root group\'s own first)');
  h.recordRoot(second);
  t.equal(saved.length, 6, 'a root recorded again stores no version again');
  for (const spec of allRunSpecs(second)) t.equal(h.get(spec.id, spec.version), spec, `${spec.id} is in the history`);
});

t.test("a held root (a running deployment's original or target) keeps every version it holds, beyond the cap and after its app left, until released", async (t) => {
  const h = new VersionHistory(3);
  const told = evictions(h);
  let root = emptyRoot(versionAt(0));
  root = ok(withRunSpec(root, makeApp({ id: '/g/a', version: versionAt(1) }), opts(1)));
  root = ok(withRunSpec(root, makeApp({ id: '/g/gone', version: versionAt(1) }), opts(1)));
  h.recordAll(root, allRunSpecs(root));
  const held = root;
  h.holdRoot(held);
  h.holdRoot(held);
  // /g/a gets 5 newer versions (the cap is 3) and /g/gone leaves; 5 root changes drop every kept root that held it.
  root = ok(withoutRunSpec(root, '/g/gone', opts(2)));
  h.recordRoot(root);
  for (let n = 3; n < 8; n++) {
    root = ok(withRunSpec(root, makeApp({ id: '/g/a', instances: n, version: versionAt(n) }), opts(n)));
    h.recordAll(root, [findRunSpec(root, '/g/a') as RunSpec]);
  }
  t.same(h.list('/g/a'), [versionAt(7), versionAt(6), versionAt(5), versionAt(1)], 'the held version stays on top of the 3 newest');
  t.same(h.list('/g/gone'), [versionAt(1)], 'the app that left keeps the version the held root holds');
  t.same(told, [3, 4].map((n) => `/g/a@${versionAt(n)}`), 'only unheld versions were evicted');
  t.same(h.rootVersions(), [7, 6, 5, 1].map(versionAt), "the held root's own root version stays on top of the 3 newest (store format 8 refers to it)");
  h.releaseRoot(held);
  t.same(h.list('/g/a'), [versionAt(7), versionAt(6), versionAt(5), versionAt(1)], 'still held once');
  h.releaseRoot(held);
  t.same(h.list('/g/a'), [versionAt(7), versionAt(6), versionAt(5)], 'released: back to the cap…');
  t.same(h.rootVersions(), [7, 6, 5].map(versionAt), '…the root versions too…');
  t.same(h.list('/g/gone'), [], '…and the app that left goes');
  // The held root's own root version goes first (store format 8: it refers to those versions), and with it the app that left.
  t.same(told.slice(2), [`/g/gone@${versionAt(1)}`, `/g/a@${versionAt(1)}`], 'the store is told');
  h.releaseRoot(held);
  t.same(told.length, 4, 'a release without a hold changes nothing');
});

t.test('with every older version held, the version just recorded is never the one evicted', async (t) => {
  const h = new VersionHistory(1);
  const first = makeApp({ id: '/a', version: versionAt(1) });
  const root = ok(withRunSpec(emptyRoot(versionAt(0)), first, { version: versionAt(1), newGroupEnforceRole: 'off' }));
  h.recordAll(root, [first]);
  h.holdRoot(root);
  h.record(makeApp({ id: '/a', instances: 2, version: versionAt(2) }));
  t.same(h.list('/a'), [versionAt(2), versionAt(1)]);
  h.releaseRoot(root);
  t.same(h.list('/a'), [versionAt(2)]);
});

/**
 * The rule of root versions, written plainly as before the held ones were set aside: after each
 * record or last release, every version older than the `max` newest (held ones counted) that no
 * hold keeps is evicted, oldest first. VersionHistory must keep and evict exactly the same.
 */
class PlainRootRule {
  readonly order: string[] = [];
  readonly holds = new Map<string, number>();
  readonly evicted: string[] = [];
  constructor(private readonly max: number) {}
  record(version: string): void {
    const at = this.order.indexOf(version);
    if (at >= 0) this.order.splice(at, 1);
    this.order.push(version);
    this.evict();
  }
  hold(version: string): void {
    this.holds.set(version, (this.holds.get(version) ?? 0) + 1);
  }
  release(version: string): void {
    const n = this.holds.get(version);
    if (n === undefined) return;
    if (n > 1) {
      this.holds.set(version, n - 1);
      return;
    }
    this.holds.delete(version);
    this.evict();
  }
  private evict(): void {
    let older = this.order.length - this.max;
    for (const version of [...this.order]) {
      if (older-- <= 0) break;
      if (this.holds.has(version)) continue;
      this.order.splice(this.order.indexOf(version), 1);
      this.evicted.push(version);
    }
  }
}

t.test('root versions kept and evicted under random records, holds and releases: the same as the plain rule', async (t) => {
  const cases: readonly [string, number, number][] = [['cap 1', 1, 11], ['cap 3', 3, 12], ['cap 5', 5, 13], ['cap 50', 50, 14]];
  for (const [name, max, seed] of cases) {
    const rng = seedrandom(`roots-${seed}`);
    const h = new VersionHistory(max);
    const evicted: string[] = [];
    h.listener = { savedRunSpecVersion: () => undefined, evictedRunSpecVersion: () => undefined, savedRootVersion: () => undefined, evictedRootVersion: (v) => void evicted.push(v) };
    const plain = new PlainRootRule(max);
    const roots = new Map<string, Group>();
    let next = 1;
    let mismatches = 0;
    let mostKept = 0;
    for (let step = 0; step < 3000; step++) {
      const r = rng();
      const kept = plain.order;
      if (r < 0.45 || kept.length === 0) {
        const root = emptyRoot(versionAt(next++));
        roots.set(root.version, root);
        h.recordRoot(root);
        plain.record(root.version);
      } else if (r < 0.5) {
        // The root in force recorded again (a recovery records it), or an older kept one.
        const version = kept[Math.floor(rng() * kept.length)];
        h.recordRoot(roots.get(version) as Group);
        plain.record(version);
      } else if (r < 0.8) {
        const version = kept[Math.floor(rng() * kept.length)];
        h.holdRoot(roots.get(version) as Group);
        plain.hold(version);
      } else {
        const held = [...plain.holds.keys()];
        if (held.length === 0) continue;
        const version = held[Math.floor(rng() * held.length)];
        h.releaseRoot(roots.get(version) as Group);
        plain.release(version);
      }
      if (JSON.stringify(h.rootVersions()) !== JSON.stringify([...plain.order].reverse())) mismatches++;
      mostKept = Math.max(mostKept, plain.order.length);
    }
    t.equal(mismatches, 0, `${name}: the kept root versions, newest first, after every step`);
    t.same(evicted, plain.evicted, `${name}: the listener told of the same evictions in the same order (${evicted.length})`);
    t.ok(mostKept > max && evicted.length > 100, `${name}: holds kept more root versions than the cap (${mostKept} at most) and many were evicted (${evicted.length})`);
  }
});

t.test('5,000 held roots beyond the cap: later records keep exactly what the plain rule keeps', async (t) => {
  // The case the set-aside roots are for: each later record evicts one unheld version without
  // reading the 5,000 held ones again (its cost: bench/README.md, "2026-12-01").
  const h = new VersionHistory(50);
  const plain = new PlainRootRule(50);
  for (let n = 1; n <= 5000; n++) {
    const root = emptyRoot(versionAt(n));
    h.recordRoot(root);
    h.holdRoot(root);
    plain.record(root.version);
    plain.hold(root.version);
  }
  for (let n = 5001; n <= 5200; n++) {
    h.recordRoot(emptyRoot(versionAt(n)));
    plain.record(versionAt(n));
  }
  t.equal(h.rootVersions().length, 5050, '5,000 held and the 50 newest');
  t.same(h.rootVersions(), [...plain.order].reverse());
});
