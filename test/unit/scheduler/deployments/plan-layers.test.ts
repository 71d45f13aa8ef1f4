import t from 'tap';
import { dependencyLayers } from '../../../../src/scheduler/deployments/dependency-layers';

function graph(edges: Record<string, readonly string[]>): (id: string) => readonly string[] {
  return (id) => edges[id] ?? [];
}

t.test('no dependencies: one layer, sorted', async (t) => {
  t.same(dependencyLayers(['/c', '/a', '/b'], graph({})), [['/a', '/b', '/c']]);
  t.same(dependencyLayers([], graph({})), []);
});

t.test('layers by longest path, dependencies first', async (t) => {
  // /d depends on /a directly and on /a through /b and /c: the longest path puts it last.
  const deps = graph({ '/b': ['/a'], '/c': ['/b'], '/d': ['/a', '/c'], '/e': ['/a'] });
  t.same(dependencyLayers(['/a', '/b', '/c', '/d', '/e'], deps), [['/a'], ['/b', '/e'], ['/c'], ['/d']]);
});

t.test('a diamond', async (t) => {
  const deps = graph({ '/top': ['/left', '/right'], '/left': ['/base'], '/right': ['/base'] });
  t.same(dependencyLayers(['/top', '/right', '/left', '/base'], deps), [['/base'], ['/left', '/right'], ['/top']]);
});

t.test('paths run through ids that are not listed; empty lengths are skipped', async (t) => {
  const deps = graph({ '/c': ['/b'], '/b': ['/a'] });
  t.same(dependencyLayers(['/c', '/x'], deps), [['/x'], ['/c']]);
});

t.test('duplicates are ignored', async (t) => {
  t.same(dependencyLayers(['/a', '/a', '/b'], graph({ '/b': ['/a'] })), [['/a'], ['/b']]);
});

t.test('each run spec\'s dependencies are asked once', async (t) => {
  const asked: string[] = [];
  const deps = graph({ '/b': ['/a'], '/c': ['/a', '/b'], '/d': ['/c', '/b'] });
  dependencyLayers(['/d', '/c', '/b', '/a'], (id) => { asked.push(id); return deps(id); });
  t.same([...asked].sort(), ['/a', '/b', '/c', '/d']);
});

t.test('a cycle is an assertion', async (t) => {
  t.throws(() => dependencyLayers(['/a'], graph({ '/a': ['/b'], '/b': ['/c'], '/c': ['/a'] })),
    { name: 'AssertionError', message: /dependency cycle through \/a/ });
  t.throws(() => dependencyLayers(['/a'], graph({ '/a': ['/a'] })), { name: 'AssertionError' });
  t.throws(() => dependencyLayers(['/x'], graph({ '/x': ['/a'], '/a': ['/b'], '/b': ['/a'] })), { name: 'AssertionError' });
});

t.test('a long chain does not overflow the stack', async (t) => {
  const n = 20_000;
  const ids = Array.from({ length: n }, (_, i) => `/s${String(i).padStart(5, '0')}`);
  const layers = dependencyLayers([...ids].reverse(), (id) => {
    const i = Number(id.slice(2));
    return i === 0 ? [] : [ids[i - 1]];
  });
  t.equal(layers.length, n);
  t.same(layers[0], [ids[0]]);
  t.same(layers[n - 1], [ids[n - 1]]);
});
