import t from 'tap';
import {
  EMPTY_PATH_MESSAGE, ID_TOO_DEEP_MESSAGE, ID_TOO_LONG_MESSAGE, MAX_ID_LENGTH, MAX_ID_SEGMENTS, PATH_ID_PATTERN, PATH_PATTERN_MESSAGE, RESERVED_ID_MESSAGE, ROOT_ID, ancestorsOf, comparePathIds, isAbsolute,
  isAncestor, isCanonical, isTopLevel, joinSegments, parentOf, resolvePathId, segments, topLevelOf, validatePathId, dotSegmentProblems,
} from '../../../../src/scheduler/groups/path-id';
import { PATH_ID } from '../../../../src/marathon/schemas/app-schema-parts';

t.test('validatePathId: Marathon segment rules', async (t) => {
  const cases: [string, string[]][] = [
    ['/prod/web-1/frontend', []],
    ['/a', []],
    ['/a.b/c-d.e', []],
    ['/v1.2.3', []],
    ['/0/9z', []],
    ['relative/child', []],
    ['../sibling', []],
    ['./child', []],
    ['/a/../b', ["Identifier is not child of '/a/..'"]],
    ['/a/./b', ["Identifier is not child of '/a/.'"]],
    ['/../b', ["Identifier is not child of '/..'"]],
    ['a/../b', []],
    ['../../db', []],
    ['/prod//web/', []],
    ['/Prod', [PATH_PATTERN_MESSAGE]],
    ['/under_score', [PATH_PATTERN_MESSAGE]],
    ['/-lead', [PATH_PATTERN_MESSAGE]],
    ['/trail-', [PATH_PATTERN_MESSAGE]],
    ['/a..b', [PATH_PATTERN_MESSAGE]],
    ['/.a', [PATH_PATTERN_MESSAGE]],
    ['/a.', [PATH_PATTERN_MESSAGE]],
    ['/a-.b', [PATH_PATTERN_MESSAGE]],
    ['/sp ace', [PATH_PATTERN_MESSAGE]],
    ['/ünïcode', [PATH_PATTERN_MESSAGE]],
    ['/app/restart', [RESERVED_ID_MESSAGE]],
    ['/app/tasks', [RESERVED_ID_MESSAGE]],
    ['/versions', [RESERVED_ID_MESSAGE]],
    ['/a/.', [RESERVED_ID_MESSAGE]],
    ['/a/..', [RESERVED_ID_MESSAGE]],
    ['/restart/app', []],
    ['/Bad/tasks', [PATH_PATTERN_MESSAGE, RESERVED_ID_MESSAGE]],
    ['/', [EMPTY_PATH_MESSAGE]],
    ['', [EMPTY_PATH_MESSAGE]],
    // pacer's limits (docs/limits.md).
    [`/${'a'.repeat(MAX_ID_LENGTH - 1)}`, []],
    [`/${'a'.repeat(MAX_ID_LENGTH)}`, [ID_TOO_LONG_MESSAGE]],
    [`/${'a'.repeat(100_000)}`, [ID_TOO_LONG_MESSAGE]],
    ['/a'.repeat(MAX_ID_SEGMENTS), []],
    ['/a'.repeat(MAX_ID_SEGMENTS + 1), [ID_TOO_DEEP_MESSAGE]],
  ];
  for (const [id, errors] of cases) t.same(validatePathId(id), errors, JSON.stringify(id));
  t.same(validatePathId('/', { allowRoot: true }), [], 'the root is a valid group id when allowed');
});

t.test('dotSegmentProblems: the dot rules checked before an id is resolved', async (t) => {
  const cases: [string, string[]][] = [
    ['/a/../b', ["Identifier is not child of '/a/..'"]],
    ['/a/./b', ["Identifier is not child of '/a/.'"]],
    // Resolution would make these /a, /x/y and /r: the reserved-keyword rule must see them first.
    ['/a/b/..', [RESERVED_ID_MESSAGE]],
    ['/x/y/z/.', [RESERVED_ID_MESSAGE]],
    ['r/s/..', [RESERVED_ID_MESSAGE]],
    ['/a/..', [RESERVED_ID_MESSAGE]],
    ['/a/b', []],
    ['../sibling', []],
    ['a/../b', []],
    ['/app/restart', []],
  ];
  for (const [id, errors] of cases) t.same(dotSegmentProblems(id), errors, JSON.stringify(id));
});

t.test('PATH_ID_PATTERN: the one id pattern of the shape schemas agrees with the core\'s segment rule', async (t) => {
  const pattern = new RegExp(PATH_ID_PATTERN);
  // [id, the shape pattern matches]: every id the pattern refuses breaks the segment rule (or is a
  // lone `.` segment, which the RAML's PathId has no place for); every id it accepts passes it.
  const cases: [string, boolean][] = [
    ['/prod/web-1/frontend', true], ['relative/child', true], ['../sibling', true], ['../../db', true], ['/prod//web/', true],
    ['/a.b/c-d.e', true], ['/v1.2.3', true], ['/app/restart', true],
    ['/Prod', false], ['/under_score', false], ['/-lead', false], ['/trail-', false], ['/a..b', false], ['/.a', false],
    ['/a.', false], ['/sp ace', false], ['/ünïcode', false], ['./child', false],
  ];
  for (const [id, matches] of cases) {
    t.equal(pattern.test(id), matches, `pattern ${JSON.stringify(id)}`);
    if (id !== './child') t.equal(validatePathId(id).includes(PATH_PATTERN_MESSAGE), !matches, `segment rule ${JSON.stringify(id)}`);
  }
  t.equal(PATH_ID.pattern, PATH_ID_PATTERN, 'the app and pod schemas use the core\'s constant, not a copy');
  const long = `/${'a-'.repeat(5000)}_`;
  const startMs = performance.now();
  t.notOk(pattern.test(long), 'a long invalid id is refused');
  t.ok(performance.now() - startMs < 5000, 'without catastrophic backtracking (generous bound)');
});

t.test('messages are Marathon\'s', async (t) => {
  t.equal(RESERVED_ID_MESSAGE, 'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..');
  t.equal(PATH_PATTERN_MESSAGE,
    "must fully match regular expression '^(([a-z0-9]|[a-z0-9][a-z0-9\\-]*[a-z0-9])\\.)*([a-z0-9]|[a-z0-9][a-z0-9\\-]*[a-z0-9])|(\\.|\\.\\.)$'");
  t.equal(EMPTY_PATH_MESSAGE, 'Path must contain at least one path element');
});

t.test('resolvePathId: relative ids against the base, . and .. resolved', async (t) => {
  const cases: [string, string, string][] = [
    ['db', '/prod', '/prod/db'],
    ['./db', '/prod', '/prod/db'],
    ['../db', '/prod/web', '/prod/db'],
    ['../../db', '/prod/web', '/db'],
    ['../../../db', '/prod/web', '/db'],
    ['a/b/../c', '/g', '/g/a/c'],
    ['/abs/./x/../y', '/ignored', '/abs/y'],
    ['/x', '/g', '/x'],
    ['x', '/', '/x'],
    ['', '/g', '/g'],
    ['..', '/g', '/'],
    ['/a//b/', '/', '/a/b'],
  ];
  for (const [id, base, want] of cases) t.equal(resolvePathId(id, base), want, `${id} from ${base}`);
  t.equal(resolvePathId('x'), '/x', 'the base defaults to the root');
});

t.test('segments, parents, top level, ancestry', async (t) => {
  t.same(segments('/prod//web/'), ['prod', 'web']);
  t.same(segments('/'), []);
  t.equal(joinSegments([]), ROOT_ID);
  t.equal(joinSegments(['a', 'b']), '/a/b');
  t.ok(isAbsolute('/a'));
  t.notOk(isAbsolute('a'));
  t.same([parentOf('/prod/web'), parentOf('/prod'), parentOf('/')], ['/prod', '/', '/']);
  t.same(ancestorsOf('/a/b/c'), ['/a/b', '/a', '/']);
  t.same(ancestorsOf('/'), []);
  t.same([topLevelOf('/prod/web/x'), topLevelOf('/prod'), topLevelOf('/')], ['/prod', '/prod', undefined]);
  t.same([isTopLevel('/prod'), isTopLevel('/prod/web'), isTopLevel('/')], [true, false, false]);
  t.ok(isAncestor('/', '/a'));
  t.ok(isAncestor('/a', '/a/b/c'));
  t.notOk(isAncestor('/a', '/a'), 'not its own ancestor');
  t.notOk(isAncestor('/a', '/ab/c'), 'segment-wise, not a string prefix');
  t.notOk(isAncestor('/a/b', '/a'));
  t.notOk(isAncestor('/', '/'));
  const canonical: [string, boolean][] = [['/', true], ['/a/b', true], ['/a/', false], ['a', false], ['/a//b', false], ['/a/./b', false], ['/a/..', false]];
  for (const [id, want] of canonical) t.equal(isCanonical(id), want, `isCanonical(${id})`);
});

t.test('comparePathIds orders segment by segment', async (t) => {
  const ids = ['/a-b', '/a/b', '/b', '/a', '/', '/a/b/c', '/a/a'];
  t.same([...ids].sort(comparePathIds), ['/', '/a', '/a/a', '/a/b', '/a/b/c', '/a-b', '/b']);
  t.equal(comparePathIds('/x', '/x'), 0);
});

t.test('comparePathIds compares plain ids without splitting them, in the same order as segment by segment', async (t) => {
  // Every id of up to three segments over an alphabet that holds code units below and above '/'
  // ('-', '.', '0' < '/' < 'a'), plus ids with empty segments (those take the splitting path).
  const parts = ['', '-', '.', '0', 'a', 'a-', 'a0', 'aa', '-a'].filter((p) => p !== '');
  const ids = ['/', '//a', '/a/', 'a/b'];
  for (const x of parts) {
    ids.push(`/${x}`);
    for (const y of parts) {
      ids.push(`/${x}/${y}`);
      for (const z of ['a', '-']) ids.push(`/${x}/${y}/${z}`);
    }
  }
  const bySegments = (a: string, b: string): number => {
    const x = segments(a);
    const y = segments(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length - y.length;
  };
  let mismatches = 0;
  for (const a of ids) for (const b of ids) if (Math.sign(comparePathIds(a, b)) !== Math.sign(bySegments(a, b))) mismatches++;
  t.equal(mismatches, 0, `${ids.length * ids.length} pairs ordered as segment by segment`);
});
