import t from 'tap';
import { CONSTRAINT_MESSAGES as M } from '../../../src/scheduler/constraints/validate-constraint';
import { podApi, podBody, send } from '../pods/pod-api-builders';
import { apiFor, appBody, call, created, type Json } from './apps-kit';

/**
 * Constraint values are validated with Marathon's rules and messages
 * (`api/v2/validation/SchedulingValidation.scala`): a constraint the matcher could never satisfy
 * is a 422, not an app whose instances wait forever.
 */

const BAD: readonly (readonly [string, readonly string[], string])[] = [
  ['UNIQUE with a value', ['hostname', 'UNIQUE', 'x'], M.uniqueTakesNoValue],
  ['MAX_PER without a value', ['rack', 'MAX_PER'], M.maxPerInteger],
  ['MAX_PER with a non-integer', ['rack', 'MAX_PER', '1.5'], M.maxPerInteger],
  ['GROUP_BY with a non-integer', ['rack', 'GROUP_BY', 'x'], M.groupByInteger],
  ['LIKE without a value', ['rack', 'LIKE'], M.likeRequiresRegex],
  ['UNLIKE without a value', ['rack', 'UNLIKE'], M.likeRequiresRegex],
  ['LIKE with an invalid regex', ['rack', 'LIKE', 'r[1'], M.invalidRegex],
  ['UNLIKE with an invalid regex', ['rack', 'unlike', '(a'], M.invalidRegex],
  ['LIKE with a backreference', ['rack', 'LIKE', '(r)\\1'], M.notLinearTime],
  ['UNLIKE with a lookahead', ['rack', 'UNLIKE', 'r(?!1)'], M.notLinearTime],
  ['IS with a value outside Mesos text', ['rack', 'IS', 'rack 1!'], M.isTextOrScalar],
  ['an empty field', ['', 'UNIQUE'], M.illegalSpecification],
];

t.test('POST /v2/apps: a bad constraint value → 422 at /constraints(i) with Marathon\'s message; nothing created', async (t) => {
  const fx = apiFor(t);
  for (const [name, constraint, message] of BAD) {
    const res = await call(fx, 'POST', '/v2/apps', appBody({ constraints: [['hostname', 'CLUSTER'], constraint] }));
    t.equal(res.status, 422, name);
    t.equal(res.json.message, 'Object is not valid', name);
    t.strictSame(res.json.details, [{ path: '/constraints(1)', errors: [message] }], name);
  }
  t.equal(fx.deps.scheduler.runSpecs().length, 0, 'nothing was created');
});

t.test('valid constraint values are accepted and echoed with the operator in upper case', async (t) => {
  const fx = apiFor(t);
  const constraints = [['hostname', 'unique'], ['rack', 'MAX_PER', '2'], ['rack', 'GROUP_BY'], ['rack', 'GROUP_BY', '3'],
    ['rack', 'LIKE', 'r[0-9]+'], ['rack', 'IS', 'rack-1.a/b_c'], ['rack', 'CLUSTER', 'any value at all']];
  const res = await created(t, fx, appBody({ constraints }));
  t.strictSame(res.json.constraints, constraints.map(([f, op, v]) => (v === undefined ? [f, op.toUpperCase()] : [f, op.toUpperCase(), v])));
});

t.test('PUT /v2/apps/{id} with a bad constraint → 422, the app keeps its definition', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ constraints: [['hostname', 'UNIQUE']] }));
  const res = await call(fx, 'PUT', '/v2/apps/foo', { constraints: [['hostname', 'UNIQUE', 'x']] });
  t.equal(res.status, 422);
  t.strictSame(res.json.details, [{ path: '/constraints(0)', errors: [M.uniqueTakesNoValue] }]);
  const got = await call(fx, 'GET', '/v2/apps/foo');
  t.strictSame((got.json.app as Json).constraints, [['hostname', 'UNIQUE']]);
});

t.test('POST /v2/groups: an app with a bad constraint → 422, nothing created', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [appBody({ id: '/g/a', constraints: [['rack', 'MAX_PER', 'x']] })] });
  t.equal(res.status, 422, res.text);
  t.match(JSON.stringify(res.json.details), M.maxPerInteger);
  t.equal(fx.deps.scheduler.runSpecs().length, 0);
});

t.test('POST /v2/pods: a bad placement constraint → 422 with Marathon\'s message', async (t) => {
  const api = podApi(t);
  const pods: readonly [Json, string][] = [
    [{ fieldName: 'hostname', operator: 'UNIQUE', value: 'x' }, M.uniqueTakesNoValue],
    [{ fieldName: 'rack', operator: 'MAX_PER' }, M.maxPerInteger],
    [{ fieldName: 'rack', operator: 'IS', value: 'rack 1!' }, M.isTextOrScalar],
    [{ fieldName: '', operator: 'UNIQUE' }, M.fieldRequired],
  ];
  for (const [constraint, message] of pods) {
    const res = await send(api.app, 'POST', '/v2/pods', podBody({ scheduling: { placement: { constraints: [constraint] } } }));
    t.equal(res.status, 422, message);
    t.match(res.json.details, [{ path: /^\/scheduling\/placement\/constraints(\(0\)|\/0)$/, errors: [message] }], message);
  }
  t.equal(api.harness.scheduler.runSpecs().length, 0);
});
