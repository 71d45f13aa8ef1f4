import t from 'tap';
import { CONSTRAINT_MESSAGES as M, validateConstraint } from '../../../src/scheduler/constraints/validate-constraint';

t.test('valid constraints produce no errors', async (t) => {
  const valid: { field?: unknown; operator?: unknown; value?: unknown }[] = [
    { field: 'hostname', operator: 'UNIQUE' },
    { field: 'hostname', operator: 'UNIQUE', value: null },
    { field: '@hostname', operator: 'CLUSTER' },
    { field: 'rack', operator: 'CLUSTER', value: 'rack-1' },
    { field: 'rack', operator: 'GROUP_BY' },
    { field: 'rack', operator: 'GROUP_BY', value: '3' },
    { field: 'rack', operator: 'MAX_PER', value: '2' },
    { field: 'rack', operator: 'MAX_PER', value: '-1' },
    { field: 'rack', operator: 'MAX_PER', value: '0' },
    { field: 'rack', operator: 'LIKE', value: 'rack-[0-9]+' },
    { field: 'rack', operator: 'UNLIKE', value: '.*' },
    { field: 'level', operator: 'IS', value: '0.8' },
    { field: 'path', operator: 'IS', value: 'a_b/c.d-e9' },
    { field: '@zone', operator: 'unique' },
    { field: '@region', operator: 'Group_By', value: '2' },
  ];
  for (const c of valid) t.same(validateConstraint(c), [], JSON.stringify(c));
});

t.test('invalid constraints produce Marathon-worded messages', async (t) => {
  const cases: [{ field?: unknown; operator?: unknown; value?: unknown }, string[]][] = [
    [{ operator: 'UNIQUE' }, [M.illegalSpecification]],
    [{ field: '', operator: 'UNIQUE' }, [M.illegalSpecification]],
    [{ field: 3, operator: 'UNIQUE' }, [M.illegalSpecification]],
    [{ field: 'h' }, [M.operatorInvalid]],
    [{ field: 'h', operator: 'IN', value: '{a}' }, [M.operatorInvalid]],
    [{ field: 'h', operator: 7 }, [M.operatorInvalid]],
    [{ operator: 'BOGUS' }, [M.illegalSpecification]],
    [{ field: 'h', operator: 'CLUSTER', value: 3 }, [M.valueNotText]],
    [{ field: 'h', operator: 'UNIQUE', value: 'x' }, [M.uniqueTakesNoValue]],
    [{ field: 'h', operator: 'UNIQUE', value: '' }, [M.uniqueTakesNoValue]],
    [{ field: 'h', operator: 'GROUP_BY', value: 'x' }, [M.groupByInteger]],
    [{ field: 'h', operator: 'GROUP_BY', value: '1.5' }, [M.groupByInteger]],
    [{ field: 'h', operator: 'GROUP_BY', value: '' }, [M.groupByInteger]],
    [{ field: 'h', operator: 'GROUP_BY', value: 'inf' }, [M.groupByInteger]],
    [{ field: 'h', operator: 'MAX_PER' }, [M.maxPerInteger]],
    [{ field: 'h', operator: 'MAX_PER', value: 'two' }, [M.maxPerInteger]],
    [{ field: 'h', operator: 'MAX_PER', value: ' 2' }, [M.maxPerInteger]],
    [{ field: 'h', operator: 'MAX_PER', value: '2147483648' }, [M.maxPerInteger]],
    [{ field: 'h', operator: 'LIKE' }, [M.likeRequiresRegex]],
    [{ field: 'h', operator: 'UNLIKE', value: '' }, [M.likeRequiresRegex]],
    [{ field: 'h', operator: 'LIKE', value: '[' }, [M.invalidRegex]],
    [{ field: 'h', operator: 'UNLIKE', value: '(a' }, [M.invalidRegex]],
    [{ field: 'h', operator: 'LIKE', value: 'a)|(b' }, [M.invalidRegex]],
    [{ field: 'h', operator: 'LIKE', value: '(a)\\1' }, [M.notLinearTime]],
    [{ field: 'h', operator: 'UNLIKE', value: 'a(?=b)' }, [M.notLinearTime]],
    [{ field: 'h', operator: 'LIKE', value: '(.*.*)*z' }, []],
    [{ field: 'h', operator: 'IS' }, [M.isRequiresValue]],
    [{ field: 'h', operator: 'IS', value: '' }, [M.isRequiresValue]],
    [{ field: 'h', operator: 'IS', value: 'a b' }, [M.isTextOrScalar]],
    [{ field: 'h', operator: 'IS', value: '{a,b}' }, [M.isTextOrScalar]],
    [{ field: 'h', operator: 'IS', value: '[1-2]' }, [M.isTextOrScalar]],
  ];
  for (const [c, want] of cases) t.same(validateConstraint(c), want, JSON.stringify(c));
});

t.test('a missing field: the array form\'s message and the object form\'s differ, as in Marathon', async (t) => {
  t.same(validateConstraint({ field: '', operator: 'UNIQUE' }, 'array'), [M.illegalSpecification]);
  t.same(validateConstraint({ field: '', operator: 'UNIQUE' }, 'object'), [M.fieldRequired]);
  t.same(validateConstraint({ field: '', operator: 'BOGUS' }, 'object'), [M.fieldRequired], 'one message, the first rule broken');
});

t.test('message texts are Marathon\'s', async (t) => {
  t.equal(M.illegalSpecification, 'illegal constraint specification');
  t.equal(M.fieldRequired, 'missing field for constraint declaration');
  t.equal(M.operatorInvalid, 'operator must be one of the following UNIQUE, CLUSTER, GROUP_BY, LIKE, MAX_PER, UNLIKE or IS');
  t.equal(M.uniqueTakesNoValue, 'UNIQUE does not accept a value');
  t.equal(M.maxPerInteger, 'MAX_PER requires an integer value');
  t.equal(M.groupByInteger, 'GROUP BY must define an integer value or else no value at all');
  t.equal(M.likeRequiresRegex, 'LIKE and UNLIKE require a non-empty, regular expression value');
  t.equal(M.invalidRegex, 'is not a valid regular expression');
  t.match(M.isTextOrScalar, /^IS only supports Mesos text and float values/);
});
