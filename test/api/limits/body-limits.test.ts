import t from 'tap';
import { MAX_JSON_DEPTH } from '../../../src/marathon/schemas/limits';
import { jsonDepthExceeds } from '../../../src/api/json-depth';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, appBody, type Json } from '../apps/apps-kit';

const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A group body with `depth` groups nested in each other (`/g`, `/g/g`, …). */
function nestedGroups(depth: number): Json {
  let group: Json = { id: 'g' };
  for (let i = 1; i < depth; i++) group = { id: 'g', groups: [group] };
  return { ...group, id: '/g' };
}

interface Row {
  readonly name: string;
  readonly url: string;
  readonly method: 'POST' | 'PUT';
  readonly payload: string;
  readonly status: number;
  readonly json: Json;
}

const tooDeep = { message: 'Invalid JSON', details: `Nesting depth exceeds ${MAX_JSON_DEPTH}` };
const labelsDeep = (depth: number): string => `{"id":"/a","cmd":"x","labels":${nestedObjects(depth)}}`;

/** Issue 11 item 2: these answered 500 "Maximum call stack size exceeded". */
const rows: Row[] = [
  { name: 'arrays 5,000 deep', url: '/v2/apps', method: 'POST', payload: nestedArrays(5000), status: 400, json: tooDeep },
  { name: 'objects 5,000 deep', url: '/v2/apps', method: 'POST', payload: nestedObjects(5000), status: 400, json: tooDeep },
  { name: 'labels 5,000 deep', url: '/v2/apps', method: 'POST', payload: labelsDeep(5000), status: 400, json: tooDeep },
  { name: 'a bulk update 5,000 deep', url: '/v2/apps', method: 'PUT', payload: nestedArrays(5000), status: 400, json: tooDeep },
  { name: 'a pod 5,000 deep', url: '/v2/pods', method: 'POST', payload: nestedObjects(5000), status: 400, json: tooDeep },
  { name: 'groups nested 1,500 deep', url: '/v2/groups', method: 'POST', payload: JSON.stringify(nestedGroups(1500)), status: 400, json: tooDeep },
  { name: 'deep inside a string is not nesting', url: '/v2/apps', method: 'POST', payload: JSON.stringify(appBody({ id: '/a', cmd: '['.repeat(5000) })), status: 201, json: {} },
  { name: 'exactly MAX_JSON_DEPTH is parsed (and then read)', url: '/v2/apps', method: 'POST', payload: nestedArrays(MAX_JSON_DEPTH), status: 422, json: { message: 'Invalid JSON', details: [{ path: '/', errors: ['error.expected.jsobject'] }] } },
  { name: 'one more is refused', url: '/v2/apps', method: 'POST', payload: nestedArrays(MAX_JSON_DEPTH + 1), status: 400, json: tooDeep },
  { name: 'labels nested within the limit: a label value must be a string', url: '/v2/apps', method: 'POST', payload: labelsDeep(50), status: 422, json: { message: 'Invalid JSON', details: [{ path: '/labels/a', errors: ['error.expected.jsstring'] }] } },
];

t.test('request bodies nested too deep: 400 before parsing, nothing changed (issue 11 item 2)', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: row.method, url: row.url, payload: row.payload, headers: { 'content-type': 'application/json' } });
    t.equal(res.statusCode, row.status, `${row.name}: status (${res.body.slice(0, 200)})`);
    if (row.status >= 400) {
      t.same(JSON.parse(res.body), row.json, `${row.name}: body`);
      t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
    }
  }
});

t.test('groups nested beyond MAX_ID_SEGMENTS but within the JSON depth: 422 naming the deepest id', async (t) => {
  const fx = apiFor(t);
  const before = stateSnapshot(fx.harness.scheduler);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/groups', payload: nestedGroups(40), headers: { 'content-type': 'application/json' } });
  t.equal(res.statusCode, 422);
  const body = JSON.parse(res.body) as { message: string; details: { path: string; errors: string[] }[] };
  t.equal(body.message, 'Object is not valid');
  t.ok(body.details.some((d) => d.errors.includes('must not have more than 32 path segments')), JSON.stringify(body.details).slice(0, 300));
  t.equal(stateSnapshot(fx.harness.scheduler), before, 'nothing changed');
});

t.test('charsets: UTF-8 (or none, or ASCII) is read; any other is 415 (issue 11.5)', async (t) => {
  const cases: [string, number][] = [
    ['application/json', 201],
    ['application/json; charset=utf-8', 201],
    ['application/json;charset=UTF-8', 201],
    ['application/json; charset="utf-8"', 201],
    ['application/json; charset=us-ascii', 201],
    ['application/json; charset=utf-16', 415],
    ['application/json; charset=UTF-16LE', 415],
    ['application/json; charset=iso-8859-1', 415],
  ];
  for (const [contentType, status] of cases) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: JSON.stringify(appBody({ id: '/a' })), headers: { 'content-type': contentType } });
    t.equal(res.statusCode, status, `${contentType}: ${res.body.slice(0, 120)}`);
    if (status === 415) {
      const json = JSON.parse(res.body) as Json;
      t.type(json.message, 'string', `${contentType}: a Marathon-shaped {message}`);
      t.equal(stateSnapshot(fx.harness.scheduler), before, `${contentType}: nothing changed`);
    }
  }
  const fx = apiFor(t);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: JSON.stringify(appBody()), headers: { 'content-type': 'application/json; charset=utf-16' } });
  t.same(JSON.parse(res.body), { message: 'Unsupported charset utf-16: JSON bodies must be UTF-8' });
});

t.test('jsonDepthExceeds: strings and escapes are skipped, the count is exact', async (t) => {
  const cases: [string, number, boolean][] = [
    ['[]', 1, false],
    ['[[]]', 1, true],
    ['{"a":[{"b":2}]}', 3, false],
    ['{"a":[{"b":2}]}', 2, true],
    ['"[[[[[["', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\"]', 1, false],
    ['["\\\\",[[]]]', 2, true],
    ['', 0, false],
  ];
  for (const [text, limit, exceeds] of cases) t.equal(jsonDepthExceeds(text, limit), exceeds, `${text} within ${limit}`);
});

t.test('bodies that are not UTF-8: 400 "Invalid JSON", nothing stored; UTF-8 is stored exactly (issue 11.5)', async (t) => {
  const bytesOf = (cmd: Buffer): Buffer => Buffer.concat([Buffer.from('{"id":"/a","cmd":"sleep '), cmd, Buffer.from('"}')]);
  const notUtf8: [string, Buffer][] = [
    ['a raw 0xff byte', Buffer.from([0xff])],
    ['a continuation byte alone', Buffer.from([0x80])],
    ['an overlong encoding of "/"', Buffer.from([0xc0, 0xaf])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['a sequence cut short', Buffer.from([0xe2, 0x82])],
    ['latin-1 "é"', Buffer.from([0xe9])],
  ];
  for (const [name, bad] of notUtf8) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: bytesOf(bad), headers: { 'content-type': 'application/json' } });
    t.equal(res.statusCode, 400, name);
    t.same(JSON.parse(res.body), { message: 'Invalid JSON', details: 'The request body is not valid UTF-8' }, `${name}: the body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${name}: nothing changed`);
  }
  const fx = apiFor(t);
  const cmd = 'sleep ü € 🎉 日本';
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: Buffer.from(JSON.stringify({ id: '/a', cmd }), 'utf8'), headers: { 'content-type': 'application/json' } });
  t.equal(res.statusCode, 201, res.body.slice(0, 200));
  const got = await fx.app.inject({ method: 'GET', url: '/v2/apps/a' });
  t.equal((JSON.parse(got.body) as { app: { cmd: string } }).app.cmd, cmd, 'multi-byte characters stored as sent');
});

t.test('a UTF-8 byte order mark before the JSON text is skipped, as Jackson skips it under Marathon; anywhere else it is a character', async (t) => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const app = Buffer.from(JSON.stringify({ id: '/a', cmd: 'sleep 1' }));
  const rows: { name: string; payload: Buffer; status: number; json?: Json }[] = [
    { name: 'one mark, then the body', payload: Buffer.concat([BOM, app]), status: 201 },
    { name: 'one mark, blanks, then the body', payload: Buffer.concat([BOM, Buffer.from(' \n'), app]), status: 201 },
    { name: 'two marks', payload: Buffer.concat([BOM, BOM, app]), status: 400 },
    { name: 'a mark after blanks', payload: Buffer.concat([Buffer.from(' '), BOM, app]), status: 400 },
    { name: 'a mark alone is no body', payload: BOM, status: 400, json: { message: 'Please specify data in JSON format', details: 'No content to map due to end-of-input' } },
  ];
  for (const row of rows) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: row.payload, headers: { 'content-type': 'application/json' } });
    t.equal(res.statusCode, row.status, `${row.name}: ${res.body.slice(0, 160)}`);
    if (row.status === 201) {
      t.equal((JSON.parse(res.body) as { cmd: string }).cmd, 'sleep 1', `${row.name}: stored as sent`);
    } else {
      if (row.json !== undefined) t.same(JSON.parse(res.body), row.json, `${row.name}: body`);
      else t.equal((JSON.parse(res.body) as Json).message, 'Invalid JSON', `${row.name}: Invalid JSON`);
      t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
    }
  }
  const fx = apiFor(t);
  const inside = Buffer.concat([BOM, Buffer.from('{"id":"/a","cmd":"sleep '), BOM, Buffer.from('1"}')]);
  t.equal((await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: inside, headers: { 'content-type': 'application/json' } })).statusCode, 201);
  const got = await fx.app.inject({ method: 'GET', url: '/v2/apps/a' });
  t.equal((JSON.parse(got.body) as { app: { cmd: string } }).app.cmd, 'sleep \uFEFF1', 'a mark inside a string is kept');
});
