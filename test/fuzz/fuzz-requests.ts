import { APP_SCHEMA } from '../../src/marathon/schemas/app-schema';
import { POD_SCHEMA } from '../../src/marathon/schemas/pod-schema';
import { MAX_JSON_DEPTH } from '../../src/marathon/schemas/limits';
import { badValue, type Draw, EDGE_IDS, nested } from './fuzz-values';
import { type SchemaField, schemaFields } from './schema-fields';

/** One request the fuzzer sends: a JSON body is sent as JSON text unless `raw` is set. */
export interface FuzzRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  readonly url: string;
  readonly body?: unknown;
  /** A body sent as is (malformed JSON, deep nesting as text, an empty body). */
  readonly raw?: string;
  readonly contentType?: string;
}

type Json = Record<string, unknown>;

const APP_FIELDS = fieldsOf(schemaFields(APP_SCHEMA));
const POD_FIELDS = fieldsOf(schemaFields(POD_SCHEMA));
const GROUP_FIELDS: Fields = fieldsOf([
  { path: ['id'], schema: { type: 'string' } }, { path: ['apps'], schema: { type: 'array' } },
  { path: ['groups'], schema: { type: 'array' } }, { path: ['dependencies'], schema: { type: 'array', items: { type: 'string' } } },
  { path: ['dependencies', 0], schema: { type: 'string' } }, { path: ['scaleBy'], schema: { type: 'number', minimum: 0 } },
  { path: ['version'], schema: { type: 'string' } }, { path: ['enforceRole'], schema: { type: 'boolean' } },
  { path: ['groups', 0, 'id'], schema: { type: 'string' } }, { path: ['groups', 0, 'apps'], schema: { type: 'array' } },
]);

/** A small pool of ids, so that requests meet what earlier ones created (and state stays small). */
const APP_IDS = ['/a0', '/a1', '/f/a2', '/f/a3', '/g0/a4', '/g0/sub/a5'];
const POD_IDS = ['/p0', '/f/p1', '/g0/p2'];
const GROUP_IDS = ['/f', '/g0', '/g0/sub', '/g1'];

/** Richer definitions now and then: a container with port mappings and volumes, a readiness check, networks. */
const extras = (draw: Draw): Json => draw.pick<Json>([
  {},
  { container: { type: 'MESOS', portMappings: [{ containerPort: 80, hostPort: 0, name: 'web' }], volumes: [{ containerPath: 'data', hostPath: '/tmp', mode: 'RW' }] }, networks: [{ mode: 'container/bridge' }] },
  { portDefinitions: [{ port: 0, name: 'http-api' }], readinessChecks: [{ name: 'r', portName: 'http-api' }], upgradeStrategy: { minimumHealthCapacity: 0, maximumOverCapacity: 0 } },
  { unreachableStrategy: { inactiveAfterSeconds: 10, expungeAfterSeconds: 20 }, killSelection: 'OLDEST_FIRST', backoffSeconds: 2, backoffFactor: 2, maxLaunchDelaySeconds: 10 },
  { fetch: [{ uri: 'http://example.invalid/a.tgz', extract: true }], user: 'nobody', taskKillGracePeriodSeconds: 5, acceptedResourceRoles: ['*'] },
]);

const validApp = (draw: Draw, id: string): Json => ({
  id, cmd: 'sleep 1000', cpus: 0.1, mem: 16, instances: draw.int(3), ...(draw.chance(0.3) ? extras(draw) : {}),
  ...(draw.chance(0.3) ? { portDefinitions: [{ port: 0, name: 'http' }], healthChecks: [{ protocol: 'COMMAND', command: { value: 'true' } }] } : {}),
  ...(draw.chance(0.2) ? { labels: { team: 'x' }, env: { A: 'b' }, constraints: [['hostname', 'UNIQUE']] } : {}),
  ...(draw.chance(0.2) ? { upgradeStrategy: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.5 } } : {}),
});

const validPod = (draw: Draw, id: string): Json => ({
  id,
  containers: [{
    name: 'c', resources: { cpus: 0.1, mem: 16 }, exec: { command: { shell: 'sleep 1000' } },
    ...(draw.chance(0.3) ? { endpoints: [{ name: 'web', hostPort: 0, protocol: ['tcp'] }], healthCheck: { http: { endpoint: 'web', path: '/' } } } : {}),
    ...(draw.chance(0.2) ? { volumeMounts: [{ name: 'v', mountPath: '/v' }], lifecycle: { killGracePeriodSeconds: 2.5 } } : {}),
  }],
  ...(draw.chance(0.2) ? { volumes: [{ name: 'v', host: '/tmp' }] } : {}),
  ...(draw.chance(0.2) ? { scheduling: { backoff: { backoff: 1, backoffFactor: 1.5, maxLaunchDelay: 60 }, placement: { constraints: [{ fieldName: 'hostname', operator: 'UNIQUE' }] } } } : {}),
  scaling: { kind: 'fixed', instances: draw.int(3) },
});

/** `value` with `path` set to `to` (intermediate objects and lists created; a list index past the end appends). */
function setAt(value: unknown, path: readonly (string | number)[], to: unknown): unknown {
  if (path.length === 0) return to;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...value] : [];
    list[Math.min(head, list.length)] = setAt(list[head], rest, to);
    return list;
  }
  const obj: Json = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Json) } : {};
  obj[head] = setAt(obj[head], rest, to);
  return obj;
}

/** The fields of a definition, and its numeric ones: where the worst defects were (issue 11). */
interface Fields {
  readonly all: readonly SchemaField[];
  readonly numbers: readonly SchemaField[];
}

function fieldsOf(all: readonly SchemaField[]): Fields {
  const numeric = (f: SchemaField): boolean => {
    const type = f.schema.type;
    return type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
  };
  return { all, numbers: all.filter(numeric) };
}

/** A valid body made bad in one to three places, a numeric field half the time (or left valid, so that state builds up). */
function mutate(draw: Draw, body: Json, fields: Fields): unknown {
  const roll = draw.int(10);
  if (roll < 7) {
    let out: unknown = body;
    for (let n = draw.chance(0.7) ? 1 : 1 + draw.int(3); n > 0; n--) {
      const field = draw.pick(draw.chance(0.5) ? fields.numbers : fields.all);
      out = setAt(out, field.path, badValue(draw, field.schema));
    }
    return out;
  }
  if (roll === 7) {
    const keys = Object.keys(body);
    const { [draw.pick(keys)]: _dropped, ...rest } = body;
    return rest;
  }
  if (roll === 8) return badValue(draw, undefined);
  return body;
}

const urlId = (id: string): string => encodeURI(id.replace(/^\/+/, ''));
/** Mostly `force=true`, so that running deployments do not keep the requests from the core. */
const query = (draw: Draw): string => draw.pick(['', '?force=true', '?force=true', '?force=true', '?force=TRUE', '?force=maybe', '?force=true&partialUpdate=false', '?dryRun=true', '?embed=apps.tasks']);

function appRequest(draw: Draw): FuzzRequest {
  const id = draw.chance(0.1) ? draw.pick(EDGE_IDS) : draw.pick(APP_IDS);
  const body = mutate(draw, validApp(draw, id), APP_FIELDS);
  switch (draw.int(5)) {
    case 0: return { method: 'POST', url: `/v2/apps${query(draw)}`, body };
    case 1: return { method: 'PUT', url: `/v2/apps/${urlId(id)}${query(draw)}`, body };
    case 2: return { method: 'PATCH', url: `/v2/apps/${urlId(id)}${query(draw)}`, body };
    case 3: return { method: 'PUT', url: `/v2/apps${query(draw)}`, body: [body, ...(draw.chance(0.3) ? [validApp(draw, draw.pick(APP_IDS))] : [])] };
    default: return { method: 'PATCH', url: `/v2/apps${query(draw)}`, body: [body] };
  }
}

function podRequest(draw: Draw): FuzzRequest {
  const id = draw.chance(0.1) ? draw.pick(EDGE_IDS) : draw.pick(POD_IDS);
  const body = mutate(draw, validPod(draw, id), POD_FIELDS);
  return draw.chance(0.5) ? { method: 'POST', url: `/v2/pods${query(draw)}`, body } : { method: 'PUT', url: `/v2/pods/${urlId(id)}${query(draw)}`, body };
}

function groupRequest(draw: Draw): FuzzRequest {
  const id = draw.chance(0.1) ? draw.pick(EDGE_IDS) : draw.pick(GROUP_IDS);
  const base: Json = draw.chance(0.3)
    ? { scaleBy: draw.pick([0, 0.5, 1, 2]) }
    : { id, apps: [validApp(draw, `${id}/x`)], ...(draw.chance(0.3) ? { groups: [{ id: `${id}/sub2`, apps: [] }] } : {}) };
  const roll = draw.int(10);
  const body = roll < 2 ? setAt(base, ['apps', 0], mutate(draw, validApp(draw, `${id}/x`), APP_FIELDS)) : mutate(draw, base, GROUP_FIELDS);
  switch (draw.int(4)) {
    case 0: return { method: 'POST', url: `/v2/groups${query(draw)}`, body };
    case 1: return { method: 'PUT', url: `/v2/groups/${urlId(id)}${query(draw)}`, body };
    case 2: return { method: 'PUT', url: `/v2/groups${query(draw)}`, body };
    default: return { method: 'PATCH', url: `/v2/groups/${urlId(id)}`, body: draw.chance(0.5) ? { enforceRole: draw.chance(0.5) } : badValue(draw, undefined) };
  }
}

function otherRequest(draw: Draw): FuzzRequest {
  const app = urlId(draw.chance(0.15) ? draw.pick(EDGE_IDS) : draw.pick(APP_IDS));
  const pod = urlId(draw.pick(POD_IDS));
  const group = urlId(draw.pick(GROUP_IDS));
  return draw.pick<FuzzRequest>([
    { method: 'DELETE', url: `/v2/apps/${app}${query(draw)}` },
    { method: 'DELETE', url: `/v2/pods/${pod}${query(draw)}` },
    { method: 'DELETE', url: `/v2/groups/${group}${query(draw)}` },
    { method: 'POST', url: `/v2/apps/${app}/restart${query(draw)}` },
    { method: 'DELETE', url: `/v2/apps/${app}/tasks?scale=${draw.pick(['true', 'false', 'x'])}` },
    { method: 'POST', url: '/v2/tasks/delete?scale=true', body: { ids: [draw.pick(['x', 'a0.instance-1._app.1', ''])] } },
    { method: 'DELETE', url: `/v2/queue/${app}/delay` },
    { method: 'DELETE', url: `/v2/deployments/${draw.pick(['x', '', 'a-b'])}${query(draw)}` },
    { method: 'GET', url: `/v2/apps/${app}${draw.pick(['', '/tasks', '/versions', '/versions/x'])}` },
    { method: 'GET', url: `/v2/groups/${group}${draw.pick(['', '/apps', '/versions'])}?embed=group.apps.tasks` },
    { method: 'GET', url: `/v2/pods/${pod}${draw.pick(['', '::status', '::versions', '::instances'])}` },
    { method: 'GET', url: draw.pick(['/v2/apps?embed=apps.tasks&label=a==b', '/v2/queue', '/v2/tasks', '/v2/deployments?embed=waitingFor', '/v2/info', '/v2/leader', '/ping', '/metrics', '/v2/pods/::status', '/pacer/v1/set-aside']) },
  ]);
}

const RAW_BODIES: readonly string[] = [
  '', ' ', '{', '{"id":', '[', 'null', '"x"', '1', 'true', '{"id":"/a0","cmd":"x",}', '\ufeff{"id":"/a0","cmd":"x"}', '{"id":"/a0","cmd":"x"}garbage',
  `{"id":"/a0","cmd":"x","labels":${JSON.stringify(nested(MAX_JSON_DEPTH + 1, true))}}`, `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"id":"/g0","groups":${'[{"id":"g","groups":'.repeat(1500)}[]${'}]'.repeat(1500)}}`, JSON.stringify(nested(MAX_JSON_DEPTH, false)),
  `{"id":"/a0","cmd":"x","labels":${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}}`,
  `{"id":"/p0","containers":[{"name":"c","resources":{"cpus":0.1,"mem":16},"labels":${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}}]}`, '{"id":"/a0","cmd":"x","instances":1e400}', '{"id":"/a0","cmd":"x","instances":-0}',
];

/** A method and content type the route may not expect, and a body that may not be JSON at all. */
function rawRequest(draw: Draw): FuzzRequest {
  return {
    method: draw.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const),
    url: draw.pick(['/v2/apps', `/v2/apps/${urlId(draw.pick(APP_IDS))}`, '/v2/pods', `/v2/pods/${urlId(draw.pick(POD_IDS))}`, '/v2/groups', '/v2/groups/f', '/v2/deployments', '/v2/tasks/delete', '/v2/queue', '/v2/info', '/v2/leader', '/v2/nope', '/']),
    raw: draw.pick(RAW_BODIES),
    contentType: draw.pick([
      'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1',
      'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', '',
    ]),
  };
}

/** The next request: app, pod and group writes (most of them made bad in one place), other operations, and raw requests. */
export function nextRequest(draw: Draw): FuzzRequest {
  const roll = draw.int(100);
  if (roll < 35) return appRequest(draw);
  if (roll < 55) return podRequest(draw);
  if (roll < 70) return groupRequest(draw);
  if (roll < 85) return otherRequest(draw);
  return rawRequest(draw);
}
