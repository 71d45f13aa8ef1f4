import t from 'tap';
import type { ConvertError } from '../../../../src/marathon/convert/convert-result';
import { appErrors, CTX, makeAppJson, makeContainerJson, makePodJson, podErrors } from './fixtures/builders';

/*
 * Marathon 1.11's app and pod rules, compared one by one with pacer's (AppValidation,
 * NetworkValidation, PodsValidation, AppDefinition.validBasicAppDefinition), for those pacer
 * accepted (a 201 where Marathon answers 422). Each row is Marathon's answer, at its path (pods'
 * as JSON pointers, as pacer writes them); a stored record is read without them and still loads.
 */

const A = (over: Record<string, unknown>) => makeAppJson({ instances: 0, ...over });
const mesos = (over: Record<string, unknown>) => ({ type: 'MESOS', ...over });
const NAME_REQUIRED = 'networkNames must be a single item list when hostPort is specified and more than 1 container network is defined';
const TWO_NETS = [{ mode: 'container', name: 'n1' }, { mode: 'container', name: 'n2' }];
const EXECUTOR = "must fully match regular expression '^(//cmd)|(/?[^/]+(/[^/]+)*)|$'";
const C = (over: Record<string, unknown>) => makeContainerJson(over);

interface Case {
  readonly name: string;
  readonly kind?: 'pod';
  readonly json: unknown;
  readonly errors: readonly ConvertError[];
}

const cases: readonly Case[] = [
  // networks
  { name: 'a host network with a name', json: A({ networks: [{ mode: 'host', name: 'x' }] }), errors: [{ path: '/networks', errors: ['Host networks may not have names or labels'] }] },
  { name: 'a bridge network with a name', json: A({ networks: [{ mode: 'container/bridge', name: 'x' }] }), errors: [{ path: '/networks', errors: ['Bridge networks may not have names'] }] },
  { name: 'a container network twice', json: A({ networks: [{ mode: 'container', name: 'n1' }, { mode: 'container', name: 'n1' }] }), errors: [{ path: '/networks', errors: ['Duplicate networks are not allowed'] }] },
  {
    name: 'a Docker container on two container networks', json: A({ networks: TWO_NETS, container: { type: 'DOCKER', docker: { image: 'x' } } }),
    errors: [{ path: '/', errors: ['may only specify a single container network when using the Docker container engine'] }],
  },
  { name: 'a Mesos container on two container networks', json: A({ networks: TWO_NETS, container: mesos({}) }), errors: [] },
  // port mappings
  {
    name: 'two port mappings of one name', json: A({ networks: [{ mode: 'container/bridge' }], container: mesos({ portMappings: [{ containerPort: 80, name: 'a' }, { containerPort: 81, name: 'a' }] }) }),
    errors: [{ path: '/container/portMappings', errors: ['Port names must be unique.'] }],
  },
  {
    name: 'a port mapping on a network the app has not', json: A({ networks: [{ mode: 'container', name: 'n1' }], container: mesos({ portMappings: [{ containerPort: 80, networkNames: ['zz'] }] }) }),
    errors: [{ path: '/container/portMappings/0/networkNames/0', errors: ['is not one of (n1)'] }],
  },
  {
    name: 'a host port on one of two networks unnamed', json: A({ networks: TWO_NETS, container: mesos({ portMappings: [{ containerPort: 80, hostPort: 0 }] }) }),
    errors: [{ path: '/container/portMappings/0', errors: [NAME_REQUIRED] }],
  },
  { name: 'a host port on one of two networks, named', json: A({ networks: TWO_NETS, container: mesos({ portMappings: [{ containerPort: 80, hostPort: 0, networkNames: ['n2'] }] }) }), errors: [] },
  // containers
  { name: 'a DOCKER container without docker', json: A({ container: { type: 'DOCKER' } }), errors: [{ path: '/container/docker', errors: ['not defined'] }] },
  {
    name: 'resource limits below the request', json: A({ cpus: 1, mem: 64, resourceLimits: { cpus: 0.5, mem: 'unlimited' } }),
    errors: [{ path: '/resourceLimits/cpus', errors: ['resource limit must be greater than or equal to requested resource (1.0)'] }],
  },
  { name: 'resource limits at the request', json: A({ cpus: 0.5, resourceLimits: { cpus: 0.5, mem: 256 } }), errors: [] },
  // health checks, checks
  {
    name: 'an IPv6 health check outside a Docker container', json: A({ healthChecks: [{ protocol: 'MESOS_HTTP', ipProtocol: 'IPv6' }] }),
    errors: [{ path: '/healthChecks/0', errors: ['IPv6 can only be used for container type DOCKER and Mesos http/https/tcp health checks'] }],
  },
  { name: 'an IPv6 MESOS_TCP health check of a Docker container', json: A({ container: { type: 'DOCKER', docker: { image: 'x' } }, healthChecks: [{ protocol: 'MESOS_TCP', ipProtocol: 'IPv6' }] }), errors: [] },
  {
    name: 'a check in a Docker container', json: A({ container: { type: 'DOCKER', docker: { image: 'x' } }, check: { exec: { command: { shell: 'true' } } } }),
    errors: [{ path: '/', errors: ["AppDefinition must not use 'checks' if using docker"] }],
  },
  {
    name: 'a check port index beyond the ports', json: A({ check: { http: { portIndex: 3 } } }),
    errors: [{ path: '/check', errors: ['check port index must address an element of the ports array or container port mappings.'] }],
  },
  // other app fields
  { name: 'an env variable without a name', json: A({ env: { '': 'x' } }), errors: [{ path: '/env/keys/0', errors: ['must not be empty'] }] },
  { name: 'a fetch URI Java cannot parse', json: A({ fetch: [{ uri: 'http://a b' }] }), errors: [{ path: '/fetch/0/uri', errors: ['URI has invalid syntax.'] }] },
  { name: 'a legacy URI Java cannot parse', json: A({ uris: ['http://a/%zz'] }), errors: [{ path: '/uris/0', errors: ['URI has invalid syntax.'] }] },
  { name: 'fetch URIs Java parses', json: A({ fetch: [{ uri: 'https://h:8080/a%20b/c.tgz?x=1#f' }, { uri: 'file:///tmp/x' }, { uri: 'relative/path' }] }), errors: [] },
  { name: 'an executor with an empty segment', json: A({ executor: 'a//b' }), errors: [{ path: '/executor', errors: [EXECUTOR] }] },
  { name: 'executors Marathon takes', json: A({ executor: '//cmd' }), errors: [] },
  {
    name: 'the DC/OS migration label alone', json: A({ labels: { DCOS_MIGRATION_API_VERSION: 'v1' } }),
    errors: [{ path: '/', errors: ['DCOS_PACKAGE_FRAMEWORK_NAME and DCOS_MIGRATION_API_PATH must be defined when using DCOS_MIGRATION_API_VERSION'] }],
  },
  // pods
  {
    name: 'pod: one host port in two containers', kind: 'pod',
    json: makePodJson({ containers: [C({ name: 'a', endpoints: [{ name: 'e1', hostPort: 8080 }] }), C({ name: 'b', endpoints: [{ name: 'e2', hostPort: 8080 }] })] }),
    errors: [{ path: '/', errors: ['host ports must be unique across all containers'] }],
  },
  {
    name: 'pod: one container port in two containers', kind: 'pod',
    json: makePodJson({ networks: [{ mode: 'container', name: 'n' }], containers: [C({ name: 'a', endpoints: [{ name: 'e1', containerPort: 80 }] }), C({ name: 'b', endpoints: [{ name: 'e2', containerPort: 80 }] })] }),
    errors: [{ path: '/', errors: ['container ports must be unique across all containers'] }],
  },
  {
    name: 'pod: a container port in host mode', kind: 'pod', json: makePodJson({}, { endpoints: [{ name: 'e', containerPort: 80 }] }),
    errors: [{ path: '/containers/0/endpoints/0/containerPort', errors: ['is not allowed when using host-mode networking'] }],
  },
  {
    name: 'pod: an endpoint on a network the pod has not', kind: 'pod',
    json: makePodJson({ networks: [{ mode: 'container', name: 'n' }] }, { endpoints: [{ name: 'e', containerPort: 80, networkNames: ['zz'] }] }),
    errors: [{ path: '/containers/0/endpoints/0/networkNames/0', errors: ['is not one of (n)'] }],
  },
  {
    name: 'pod: an endpoint protocol twice', kind: 'pod', json: makePodJson({}, { endpoints: [{ name: 'e', protocol: ['tcp', 'TCP'] }] }),
    errors: [{ path: '/containers/0/endpoints/0/protocol', errors: ['Duplicate protocols within the same endpoint are not allowed'] }],
  },
  {
    name: 'pod: a host port on one of two networks unnamed', kind: 'pod', json: makePodJson({ networks: TWO_NETS }, { endpoints: [{ name: 'e', containerPort: 80, hostPort: 0 }] }),
    errors: [{ path: '/containers/0/endpoints/0', errors: [NAME_REQUIRED] }],
  },
  {
    name: 'pod: a volume no container mounts', kind: 'pod', json: makePodJson({ volumes: [{ name: 'm' }, { name: 'v' }] }, { volumeMounts: [{ name: 'm', mountPath: '/m' }] }),
    errors: [{ path: '/volumes/1', errors: ['volume must be referenced by at least one container'] }],
  },
  {
    name: 'pod: a health check timeout not below its interval', kind: 'pod', json: makePodJson({}, { healthCheck: { exec: { command: { shell: 'true' } }, intervalSeconds: 10 } }),
    errors: [{ path: '/containers/0/healthCheck/timeoutSeconds', errors: ['got 20, expected less than 10'] }],
  },
  { name: 'pod: an empty user', kind: 'pod', json: makePodJson({ user: '' }), errors: [{ path: '/user', errors: ['must not be empty'] }] },
  {
    name: 'pod: container resource limits below the request', kind: 'pod', json: makePodJson({}, { resourceLimits: { mem: 16 } }),
    errors: [{ path: '/containers/0/resourceLimits/mem', errors: ['resource limit must be greater than or equal to requested resource (32.0)'] }],
  },
  { name: 'pod: a network twice', kind: 'pod', json: makePodJson({ networks: [{ mode: 'container', name: 'n' }, { mode: 'container', name: 'n' }] }), errors: [{ path: '/networks', errors: ['Duplicate networks are not allowed'] }] },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    t.strictSame(c.kind === 'pod' ? podErrors(c.json) : appErrors(c.json), c.errors);
    const stored = { ...CTX, storedRecord: true };
    t.strictSame(c.kind === 'pod' ? podErrors(c.json, stored) : appErrors(c.json, stored), [], 'a stored record loads');
  });
}
