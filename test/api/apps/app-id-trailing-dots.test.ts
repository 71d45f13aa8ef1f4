import t from 'tap';
import { RESERVED_ID_MESSAGE } from '../../../src/scheduler/groups/path-id';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { podBody } from '../pods/pod-api-builders';
import { apiFor, appBody, call, type Json } from './apps-kit';

// An absolute app id whose last segment is `..` (or `.`) is refused as Marathon refuses it, with the
// reserved-keyword message, as pod and group ids are (docs/limits.md, "Ids"): it used to be
// resolved before the reserved-keyword rule saw it, so `/a/b/..` created the app `/a`.

const reserved = (path: string): Json => ({ message: 'Object is not valid', details: [{ path, errors: [RESERVED_ID_MESSAGE] }] });

t.test('app ids ending in .. are refused with the reserved-keyword message, changing nothing', async (t) => {
  const cases: [string, 'POST' | 'PUT' | 'PATCH', string, unknown, Json][] = [
    ['POST /v2/apps', 'POST', '/v2/apps', appBody({ id: '/a/b/..' }), reserved('/id')],
    ['POST /v2/apps, deeper', 'POST', '/v2/apps', appBody({ id: '/x/y/z/..' }), reserved('/id')],
    ['POST /v2/apps, a relative id', 'POST', '/v2/apps', appBody({ id: 'r/s/..' }), reserved('/id')],
    ['PUT /v2/apps (bulk)', 'PUT', '/v2/apps', [appBody({ id: '/m/n/..' })], reserved('/(0)/id')],
    ['PATCH /v2/apps (bulk)', 'PATCH', '/v2/apps', [appBody({ id: '/m/n/..' })], reserved('/(0)/id')],
    ['POST /v2/pods (as it already was)', 'POST', '/v2/pods', podBody({ id: '/p/q/..' }), reserved('/id')],
  ];
  for (const [name, method, url, body, json] of cases) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, method, url, body);
    t.equal(res.status, 422, `${name}: status (${res.text.slice(0, 160)})`);
    t.same(res.json, json, `${name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${name}: nothing changed`);
  }
});
