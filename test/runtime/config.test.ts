import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { resolveAgents } from '../../src/cluster/local/local-agent';
import { defaultConfig, parseConfig, usage, type PacerConfig } from '../../src/runtime/config';
import { schedulerOptionsOf } from '../../src/runtime/runtime-parts';
import { localClusterOptions } from '../../src/runtime/start-local';
import { silentLog } from '../../src/runtime/pacer-log';
import type { SchedulerOptions } from '../../src/scheduler/scheduler-options';

/** A working directory that is not the process's, so "relative to cwd" is visible. */
const CWD = resolve('/tmp', 'pacer-config-test-cwd');
/** The refusals of an http(s) `--master` holding what pacer would not use (docs/mesos.md). */
const HTTP_MASTER_CREDENTIALS = 'credentials in an http(s) master URL are not used: expected http://host:port or https://host:port, with the credentials in --mesos_authentication_principal and --mesos_authentication_secret_file';
const HTTP_MASTER_PATH = 'a path, query or fragment in an http(s) master URL is not used (pacer calls /api/v1/scheduler on the master itself): expected http://host:port or https://host:port';

type Parsed = ReturnType<typeof parseConfig>;

/** The config of a parse that must succeed (fails the test with the error otherwise). */
function configOf(parsed: Parsed): PacerConfig {
  if (parsed === 'help' || 'error' in parsed) throw new Error(`expected a config, got ${JSON.stringify(parsed)}`);
  return parsed;
}

/** The error text of a parse that must fail. */
function errorOf(parsed: Parsed): string {
  if (parsed === 'help' || !('error' in parsed)) throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  return parsed.error;
}

t.test('defaults: the embedded local cluster on 127.0.0.1:8080 with state under <cwd>/.pacer', async (t) => {
  const config = configOf(parseConfig([], {}, CWD));
  t.same(config, defaultConfig(CWD), 'no flags and no environment give exactly the defaults');
  t.match(config, {
    cluster: 'local', address: '127.0.0.1', port: 8080,
    storePath: resolve(CWD, '.pacer', 'pacer.db'), storeSynchronous: 'NORMAL', storeMinFreeBytes: 64 * 1024 * 1024,
    sandboxRoot: resolve(CWD, '.pacer', 'sandboxes'), localAgents: 1,
    defaultRole: '*', newGroupEnforceRole: 'off', maxRunningDeployments: 100, maxTotalInstances: 1_000_000, gpuSchedulingBehavior: 'restricted', features: [],
    bodyLimitBytes: 1024 * 1024, speed: 10,
  });
  // Offer handling as fast as Marathon's (issue 15 item 2): 5 per offer, accepted offers unfiltered, declines 120 s.
  t.match(config, { maxInstancesPerOffer: 5, acceptRefuseDurationMs: 0, declineOfferDurationMs: 120_000, localOfferIntervalMs: 1000, localSandboxGcDelayMs: 604_800_000, localSandboxKeep: 1000 });
  t.equal(config.seed, undefined, 'no seed override');
  t.equal(config.master, undefined, 'no master');
  t.equal(config.defaultNetworkName, undefined, 'no default network name');
  t.ok(config.workload.endsWith(join('scenarios', 'demo.yaml')), 'the demo workload');
  t.ok(existsSync(config.workload), 'the default workload file exists (found from src/)');
});

t.test('unrelated environment variables are ignored', async (t) => {
  const config = configOf(parseConfig([], { PORT: '1', PACER: 'x', PACER_UNKNOWN: 'y', HOME: '/nowhere' }, CWD));
  t.same(config, defaultConfig(CWD));
});

/** Each option: a flag, its environment variable, a raw value, and the field it sets. */
const OPTION_TABLE: readonly { flag: string; env: string; value: string; expect: Partial<PacerConfig> }[] = [
  { flag: '--cluster', env: 'PACER_CLUSTER', value: 'sim', expect: { cluster: 'sim' } },
  { flag: '--address', env: 'PACER_ADDRESS', value: '0.0.0.0', expect: { address: '0.0.0.0' } },
  { flag: '--port', env: 'PACER_PORT', value: '0', expect: { port: 0 } },
  { flag: '--store', env: 'PACER_STORE', value: '/var/lib/pacer/p.db', expect: { storePath: '/var/lib/pacer/p.db' } },
  { flag: '--store_sync', env: 'PACER_STORE_SYNC', value: 'full', expect: { storeSynchronous: 'FULL' } },
  { flag: '--store_min_free', env: 'PACER_STORE_MIN_FREE', value: '2', expect: { storeMinFreeBytes: 2 * 1024 * 1024 } },
  { flag: '--sandbox', env: 'PACER_SANDBOX', value: '/srv/sandboxes', expect: { sandboxRoot: '/srv/sandboxes' } },
  { flag: '--local_agents', env: 'PACER_LOCAL_AGENTS', value: '3', expect: { localAgents: 3 } },
  { flag: '--local_agent_ports', env: 'PACER_LOCAL_AGENT_PORTS', value: '41000-41099', expect: { localAgentPorts: [41000, 41099] } },
  { flag: '--mesos_role', env: 'PACER_MESOS_ROLE', value: 'web', expect: { defaultRole: 'web' } },
  { flag: '--new_group_enforce_role', env: 'PACER_NEW_GROUP_ENFORCE_ROLE', value: 'top', expect: { newGroupEnforceRole: 'top' } },
  { flag: '--max_running_deployments', env: 'PACER_MAX_RUNNING_DEPLOYMENTS', value: '7', expect: { maxRunningDeployments: 7 } },
  { flag: '--max_total_instances', env: 'PACER_MAX_TOTAL_INSTANCES', value: '5000', expect: { maxTotalInstances: 5000 } },
  { flag: '--gpu_scheduling_behavior', env: 'PACER_GPU_SCHEDULING_BEHAVIOR', value: 'unrestricted', expect: { gpuSchedulingBehavior: 'unrestricted' } },
  { flag: '--max_instances_per_offer', env: 'PACER_MAX_INSTANCES_PER_OFFER', value: '50', expect: { maxInstancesPerOffer: 50 } },
  { flag: '--decline_offer_duration', env: 'PACER_DECLINE_OFFER_DURATION', value: '0', expect: { declineOfferDurationMs: 0 } },
  { flag: '--accept_refuse_duration', env: 'PACER_ACCEPT_REFUSE_DURATION', value: '5000', expect: { acceptRefuseDurationMs: 5000 } },
  { flag: '--draining_seconds', env: 'PACER_DRAINING_SECONDS', value: '300', expect: { drainingSeconds: 300 } },
  { flag: '--local_offer_interval', env: 'PACER_LOCAL_OFFER_INTERVAL', value: '20', expect: { localOfferIntervalMs: 20 } },
  { flag: '--local_sandbox_gc_delay', env: 'PACER_LOCAL_SANDBOX_GC_DELAY', value: '0', expect: { localSandboxGcDelayMs: 0 } },
  { flag: '--local_sandbox_keep', env: 'PACER_LOCAL_SANDBOX_KEEP', value: '5', expect: { localSandboxKeep: 5 } },
  { flag: '--unhealthy_kill_floor', env: 'PACER_UNHEALTHY_KILL_FLOOR', value: '0.5', expect: { unhealthyKillFloor: 0.5 } },
  { flag: '--enable_features', env: 'PACER_ENABLE_FEATURES', value: ' task_killing, ,gpu_resources ', expect: { features: ['task_killing', 'gpu_resources'] } },
  { flag: '--default_network_name', env: 'PACER_DEFAULT_NETWORK_NAME', value: 'dcos', expect: { defaultNetworkName: 'dcos' } },
  { flag: '--http_max_body', env: 'PACER_HTTP_MAX_BODY', value: '2048', expect: { bodyLimitBytes: 2048 } },
  { flag: '--master', env: 'PACER_MASTER', value: 'zk://zk1:2181/mesos', expect: { master: 'zk://zk1:2181/mesos' } },
  { flag: '--workload', env: 'PACER_WORKLOAD', value: '/w/partition.yaml', expect: { workload: '/w/partition.yaml' } },
  { flag: '--speed', env: 'PACER_SPEED', value: '2.5', expect: { speed: 2.5 } },
  { flag: '--seed', env: 'PACER_SEED', value: '42', expect: { seed: 42 } },
  { flag: '--log_format', env: 'PACER_LOG_FORMAT', value: 'json', expect: { logFormat: 'json' } },
  { flag: '--zk', env: 'PACER_ZK', value: 'zk://u:p@zk1:2181,zk2/pacer', expect: { zk: 'zk://u:p@zk1:2181,zk2/pacer' } },
  { flag: '--zk_session_timeout', env: 'PACER_ZK_SESSION_TIMEOUT', value: '3000', expect: { zkSessionTimeoutMs: 3000 } },
  { flag: '--hostname', env: 'PACER_HOSTNAME', value: 'pacer-1.example', expect: { hostname: 'pacer-1.example' } },
  { flag: '--http_port', env: 'PACER_HTTP_PORT', value: '9090', expect: { port: 9090 } },
];

t.test('every option is read from its flag (both spellings, both forms) and from its environment variable', async (t) => {
  for (const row of OPTION_TABLE) {
    const dashed = row.flag.replace(/_/g, '-');
    const ways: readonly [string, Parsed][] = [
      [`${row.flag} VALUE`, parseConfig([row.flag, row.value], {}, CWD)],
      [`${row.flag}=VALUE`, parseConfig([`${row.flag}=${row.value}`], {}, CWD)],
      [`${dashed} VALUE`, parseConfig([dashed, row.value], {}, CWD)],
      [`${dashed}=VALUE`, parseConfig([`${dashed}=${row.value}`], {}, CWD)],
      [row.env, parseConfig([], { [row.env]: row.value }, CWD)],
    ];
    for (const [how, parsed] of ways) t.match(configOf(parsed), row.expect, `${how} sets ${Object.keys(row.expect).join()}`);
  }
});

t.test('usage lists every option with its environment variable, and --help', async (t) => {
  const text = usage();
  t.match(text, /^usage: npm start -- \[options\]/);
  for (const row of OPTION_TABLE) {
    t.match(text, new RegExp(`^  ${row.flag} VALUE +.*\\[${row.env}\\]$`, 'm'), `${row.flag} is documented with ${row.env}`);
  }
  t.match(text, /^  --help +this text$/m);
});

t.test('flags win over the environment, whatever their order; the last flag wins over an earlier one', async (t) => {
  const env = { PACER_PORT: '9001', PACER_CLUSTER: 'sim', PACER_MESOS_ROLE: 'env-role' };
  t.match(configOf(parseConfig(['--port', '9002'], env, CWD)), { port: 9002, cluster: 'sim', defaultRole: 'env-role' }, 'unflagged options keep the env value');
  t.match(configOf(parseConfig(['--cluster=local', '--mesos-role', 'flag-role'], env, CWD)), { port: 9001, cluster: 'local', defaultRole: 'flag-role' });
  t.match(configOf(parseConfig(['--port', '1', '--port=2'], {}, CWD)), { port: 2 }, 'repeated flags: the last one');
});

t.test('a flag that is wrong fails even when the environment is right, and the reverse', async (t) => {
  t.equal(errorOf(parseConfig(['--port', 'x'], { PACER_PORT: '9000' }, CWD)), '--port x: expected an integer from 0 to 65535');
  t.equal(errorOf(parseConfig(['--port', '9000'], { PACER_PORT: 'x' }, CWD)), 'PACER_PORT=x: expected an integer from 0 to 65535',
    'an invalid environment value is reported even though a flag would override it');
});

t.test('values: inline values may contain "=", paths are absolute, store_sync is case-insensitive', async (t) => {
  t.match(configOf(parseConfig(['--webui_url=http://m:8080/?a=b'], {}, CWD)), { webuiUrl: 'http://m:8080/?a=b' }, 'only the first "=" splits');
  t.match(configOf(parseConfig(['--master=http://m:5050/'], {}, CWD)), { master: 'http://m:5050/' }, 'a master URL may end in "/"');
  t.match(configOf(parseConfig(['--store_sync', 'Full'], {}, CWD)), { storeSynchronous: 'FULL' });
  t.match(configOf(parseConfig(['--store-sync=normal'], {}, CWD)), { storeSynchronous: 'NORMAL' });
  const relative = configOf(parseConfig(['--store', 'x/p.db', '--sandbox', 'sb', '--workload', 'w.yaml'], {}, CWD));
  for (const field of ['storePath', 'sandboxRoot', 'workload'] as const) t.ok(relative[field].startsWith('/'), `${field} is made absolute`);
  t.match(configOf(parseConfig(['--enable_features', ''], {}, CWD)), { features: [] }, 'an empty feature list');
  t.match(configOf(parseConfig(['--enable_features', 'vips,external_volumes,secrets'], {}, CWD)), { features: ['vips', 'external_volumes', 'secrets'] }, "Marathon's other features are accepted");
  t.match(configOf(parseConfig(['--address='], {}, CWD)), { address: '' }, 'an empty inline value is a value');
});

/** Each bad input and the exact message: it names the option (flag or variable), the value and what was expected. */
const ERROR_TABLE: readonly { argv?: string[]; env?: Record<string, string>; error: string }[] = [
  { argv: ['--bogus', '1'], error: 'unknown option --bogus' },
  { argv: ['--bogus=1'], error: 'unknown option --bogus' },
  // A word that is no option: `npm start 8090`, or `npm start --port 8090` without the `--`, where
  // npm takes --port as its own setting (npm_config_port) and passes 8090 on.
  { argv: ['serve'], error: 'unexpected argument serve: pacer takes only options (--name value); through npm they go after --, as in npm start -- --port 8090' },
  { argv: ['8090'], env: { npm_config_port: 'true' }, error: 'unexpected argument 8090: pacer takes only options (--name value); through npm they go after --, as in npm start -- --port 8090' },
  { argv: ['3'], env: { npm_config_local_agents: 'true' }, error: 'unexpected argument 3: pacer takes only options (--name value); through npm they go after --, as in npm start -- --local_agents 3' },
  { argv: ['-p', '80'], error: 'unknown option -p' },
  { argv: ['--port'], error: '--port: missing value' },
  { argv: ['--local-agents'], error: '--local-agents: missing value' },
  { argv: ['--cluster', 'k8s'], error: '--cluster k8s: expected one of local, sim, mesos' },
  { argv: ['--enable_features', 'task_kiling'], error: '--enable_features task_kiling: unknown feature task_kiling; expected a comma list of vips, task_killing, external_volumes, secrets, gpu_resources' },
  { env: { PACER_ENABLE_FEATURES: 'task_killing,foo, bar' }, error: 'PACER_ENABLE_FEATURES=task_killing,foo, bar: unknown features foo, bar; expected a comma list of vips, task_killing, external_volumes, secrets, gpu_resources' },
  { argv: ['--cluster=LOCAL'], error: '--cluster LOCAL: expected one of local, sim, mesos' },
  { env: { PACER_CLUSTER: 'k8s' }, error: 'PACER_CLUSTER=k8s: expected one of local, sim, mesos' },
  { argv: ['--port', '65536'], error: '--port 65536: expected an integer from 0 to 65535' },
  { argv: ['--port', '-1'], error: '--port -1: expected an integer from 0 to 65535' },
  { argv: ['--port', '80.5'], error: '--port 80.5: expected an integer from 0 to 65535' },
  { argv: ['--port='], error: '--port : expected an integer from 0 to 65535' },
  { env: { PACER_PORT: '' }, error: 'PACER_PORT=: expected an integer from 0 to 65535' },
  { argv: ['--store_sync', 'OFF'], error: '--store_sync OFF: expected one of NORMAL, FULL' },
  { argv: ['--log_format', 'yaml'], error: '--log_format yaml: expected one of text, json' },
  { argv: ['--local_agents', '0'], error: '--local_agents 0: expected an integer from 1 to 64' },
  { argv: ['--local_sandbox_gc_delay', '-1'], error: '--local_sandbox_gc_delay -1: expected an integer from 0 to 31536000000' },
  { argv: ['--local_sandbox_gc_delay', '31536000001'], error: '--local_sandbox_gc_delay 31536000001: expected an integer from 0 to 31536000000' },
  { argv: ['--local_sandbox_gc_delay', '1week'], error: '--local_sandbox_gc_delay 1week: expected an integer from 0 to 31536000000' },
  { env: { PACER_LOCAL_SANDBOX_KEEP: '1000001' }, error: 'PACER_LOCAL_SANDBOX_KEEP=1000001: expected an integer from 0 to 1000000' },
  { argv: ['--local_sandbox_keep', '1.5'], error: '--local_sandbox_keep 1.5: expected an integer from 0 to 1000000' },
  { env: { PACER_LOCAL_AGENTS: '65' }, error: 'PACER_LOCAL_AGENTS=65: expected an integer from 1 to 64' },
  ...['31000', '31000-', '-31000', 'a-b', '31000-31999-32000', '31000:31999', '0-10', '65000-65536', '31999-31000', '1e3-2e3'].map((v) => (
    { argv: ['--local_agent_ports', v], error: `--local_agent_ports ${v}: expected BEGIN-END, two ports from 1 to 65535 with BEGIN not above END (such as 31000-31999)` })),
  ...[['rack', 'rack'], ['rack:', 'rack:'], [':r1', ':r1'], ['rack:r 1', 'rack:r 1'], ['rack:r1;;zone:a', ''], ['ra ck:r1', 'ra ck:r1']].map(([v, pair]) => (
    { argv: ['--local_agent_attributes', v], error: `--local_agent_attributes ${v}: ${JSON.stringify(pair)}: expected NAME:VALUE, no blanks inside either` })),
  ...[
    ['rack:r1:x', 'the value "r1:x": expected text (1 to 128 characters of a-z A-Z 0-9 _ / . -), a number, ranges [b-e,…] or a set {a,…}'],
    ['rack:é', 'the value "é": expected text (1 to 128 characters of a-z A-Z 0-9 _ / . -), a number, ranges [b-e,…] or a set {a,…}'],
    [`rack:${'x'.repeat(129)}`, 'the value: expected 1 to 128 characters'],
    [`${'n'.repeat(129)}:r1`, `the name "${'n'.repeat(129)}": expected 1 to 128 characters of a-z A-Z 0-9 _ / . -`],
    ['ports:[2-1]', 'the value [2-1]: "2-1" is no range b-e of whole numbers with b not above e'],
    ['ports:[1-2,5]', 'the value [1-2,5]: "5" is no range b-e of whole numbers with b not above e'],
    ['ports:[1-2', 'the value [1-2: expected ranges [b-e,…] closed by ]'],
    ['disks:{a,b c}', ''],
    ['disks:{a,,b}', 'the value {a,,b}: the item "": expected 1 to 128 characters of a-z A-Z 0-9 _ / . -'],
    ['disks:{a', 'the value {a: expected a set {a,…} closed by }'],
    ['level:1e999', 'the value 1e999: expected a finite number'],
  ].map(([pair, problem]) => (
    { argv: ['--local_agent_attributes', pair], error: problem === '' ? `--local_agent_attributes ${pair}: ${JSON.stringify(pair)}: expected NAME:VALUE, no blanks inside either` : `--local_agent_attributes ${pair}: ${JSON.stringify(pair)}: ${problem}` })),
  ...[['eu', 'eu'], ['eu/', 'eu/'], ['eu/a/b', 'eu/a/b'], ['e u/a', 'e u/a'], [`eu/${'z'.repeat(129)}`, `eu/${'z'.repeat(129)}`]].map(([v, entry]) => (
    { argv: ['--local_agent_domains', v], error: `--local_agent_domains ${v}: ${JSON.stringify(entry)}: expected REGION/ZONE, each of 1 to 128 characters of a-z A-Z 0-9 _ . -` })),
  { argv: ['--local_agent_domains', 'eu/a|eu'], error: '--local_agent_domains eu/a|eu: agent 2: "eu": expected REGION/ZONE, each of 1 to 128 characters of a-z A-Z 0-9 _ . -' },
  { argv: ['--local_agents', '3', '--local_agent_domains', 'eu/a|eu/b'], error: '--local_agent_domains gives 2 domains with --local_agents 3: expected one domain for every agent, or one per agent' },
  { argv: ['--local_agent_domains', Array(65).fill('eu/a').join('|')], error: `--local_agent_domains ${Array(65).fill('eu/a').join('|')}: expected at most one domain per agent (at most 64)` },
  { argv: ['--local_agent_attributes', 'rack:r1;rack:r2'], error: '--local_agent_attributes rack:r1;rack:r2: attribute rack given twice' },
  { argv: ['--local_agent_attributes', 'rack:r1|rack:r2:x'], error: '--local_agent_attributes rack:r1|rack:r2:x: agent 2: "rack:r2:x": the value "r2:x": expected text (1 to 128 characters of a-z A-Z 0-9 _ / . -), a number, ranges [b-e,…] or a set {a,…}' },
  { argv: ['--local_agent_attributes', Array.from({ length: 33 }, (_, i) => `a${i}:v`).join(';')], error: `--local_agent_attributes ${Array.from({ length: 33 }, (_, i) => `a${i}:v`).join(';')}: 33 attributes, expected at most 32` },
  { argv: ['--local_agent_attributes', Array(65).fill('a:b').join('|')], error: `--local_agent_attributes ${Array(65).fill('a:b').join('|')}: expected at most one attribute list per agent (at most 64)` },
  { argv: ['--local_agent_attributes', 'rack:r1|rack:r2'], error: '--local_agent_attributes gives 2 attribute lists with --local_agents 1: expected one list for every agent, or one per agent' },
  { argv: ['--local_agents', '3', '--local_agent_attributes', 'rack:r1|rack:r2'], error: '--local_agent_attributes gives 2 attribute lists with --local_agents 3: expected one list for every agent, or one per agent' },
  { env: { PACER_LOCAL_AGENT_PORTS: '' }, error: 'PACER_LOCAL_AGENT_PORTS=: expected BEGIN-END, two ports from 1 to 65535 with BEGIN not above END (such as 31000-31999)' },
  { argv: ['--local_agent_ports', '41000-41001', '--local_agents', '3'], error: '--local_agent_ports 41000-41001 with --local_agents 3: 2 port(s) cannot be split among 3 agents: expected at least one port per agent' },
  { argv: ['--local_agent_ports', '8000-8999'], error: '--local_agent_ports 8000-8999 holds --port 8080: expected a range apart from the API\'s ports' },
  { argv: ['--local_agent_ports', '8000-8999', '--port', '0', '--ssl_cert', 'c.pem', '--ssl_key', 'k.pem', '--https_port', '8443'], error: '--local_agent_ports 8000-8999 holds --https_port 8443: expected a range apart from the API\'s ports' },
  ...['http://:5050', 'http://m:99999', 'http://m a:5050', 'https://[fd00::1:5050'].map((v) => (
    { argv: ['--master', v], error: `--master ${v}: expected http://host:port, https://host:port or zk://host:port/path` })),
  ...['http://m:5050/some/path', 'http://m:5050/api/v1/scheduler', 'https://m:5050/?a=b', 'http://m:5050?', 'http://m:5050#top'].map((v) => (
    { argv: ['--master', v], error: `--master ${v}: ${HTTP_MASTER_PATH}` })),
  { argv: ['--master', 'http://user:pass@m:5050/some/path'], error: `--master http://xxxxxxxx@m:5050/some/path: ${HTTP_MASTER_CREDENTIALS}` },
  { env: { PACER_MASTER: 'https://user@m:5050' }, error: `PACER_MASTER=https://xxxxxxxx@m:5050: ${HTTP_MASTER_CREDENTIALS}` },
  { env: { PACER_MASTER: 'http://ops:hunter2@:5050' }, error: 'PACER_MASTER=http://xxxxxxxx@:5050: expected http://host:port, https://host:port or zk://host:port/path' },
  { argv: ['--mesos_role', ''], error: '--mesos_role : expected a role name: A role name must not be "".' },
  { argv: ['--mesos_role', '.'], error: '--mesos_role .: expected a role name: A role name must not be ".".' },
  { argv: ['--mesos_role', '..'], error: '--mesos_role ..: expected a role name: A role name must not be "..".' },
  { argv: ['--mesos_role', '-ops'], error: "--mesos_role -ops: expected a role name: A role name must not start with a '-'." },
  { argv: ['--mesos_role', 'my role'], error: '--mesos_role my role: expected a role name: A role name must not include a space (\\x20) character.' },
  { env: { PACER_MESOS_ROLE: 'dev/ops' }, error: 'PACER_MESOS_ROLE=dev/ops: expected a role name: A role name must not include a slash (\\x2f) character.' },
  { argv: ['--new-group-enforce-role', 'all'], error: '--new-group-enforce-role all: expected one of off, top' },
  { argv: ['--max_running_deployments', '0'], error: '--max_running_deployments 0: expected an integer from 1 to 100000' },
  { argv: ['--max_total_instances', '0'], error: '--max_total_instances 0: expected an integer from 1 to 10000000' },
  { argv: ['--max_total_instances', '10000001'], error: '--max_total_instances 10000001: expected an integer from 1 to 10000000' },
  { argv: ['--max_instances_per_offer', '0'], error: '--max_instances_per_offer 0: expected an integer from 1 to 1000000' },
  { argv: ['--decline_offer_duration', '-1'], error: '--decline_offer_duration -1: expected an integer from 0 to 31536000000' },
  { argv: ['--draining_seconds', '-1'], error: '--draining_seconds -1: expected an integer from 0 to 315360000' },
  { argv: ['--draining_seconds', '315360001'], error: '--draining_seconds 315360001: expected an integer from 0 to 315360000' },
  { env: { PACER_DRAINING_SECONDS: '1.5' }, error: 'PACER_DRAINING_SECONDS=1.5: expected an integer from 0 to 315360000' },
  { argv: ['--disable_maintenance_mode=yes'], error: '--disable_maintenance_mode yes: expected true or false' },
  { env: { PACER_MAINTENANCE_MODE: '' }, error: 'PACER_MAINTENANCE_MODE=: expected true or false' },
  { env: { PACER_ACCEPT_REFUSE_DURATION: '1.5' }, error: 'PACER_ACCEPT_REFUSE_DURATION=1.5: expected an integer from 0 to 31536000000' },
  { argv: ['--local_offer_interval', '0'], error: '--local_offer_interval 0: expected an integer from 1 to 60000' },
  { argv: ['--http_max_body', '1023'], error: '--http_max_body 1023: expected an integer from 1024 to 1073741824' },
  { argv: ['--gpu_scheduling_behavior', 'undefined'], error: "--gpu_scheduling_behavior undefined: '--gpu_scheduling_behavior undefined' has been removed. Please set either restricted or unrestricted." },
  { env: { PACER_GPU_SCHEDULING_BEHAVIOR: 'RESTRICTED' }, error: 'PACER_GPU_SCHEDULING_BEHAVIOR=RESTRICTED: expected one of restricted, unrestricted' },
  { argv: ['--speed', '0'], error: '--speed 0: expected a positive number' },
  { argv: ['--speed', 'fast'], error: '--speed fast: expected a positive number' },
  { argv: ['--speed', 'Infinity'], error: '--speed Infinity: expected a positive number' },
  { env: { PACER_SPEED: '-3' }, error: 'PACER_SPEED=-3: expected a positive number' },
  { argv: ['--seed', '-1'], error: '--seed -1: expected an integer from 0 to 9007199254740991' },
];

t.test('every error names the option, the value and what was expected', async (t) => {
  for (const row of ERROR_TABLE) {
    t.equal(errorOf(parseConfig(row.argv ?? [], row.env ?? {}, CWD)), row.error, row.error);
  }
});

t.test('--help and -h answer help wherever they stand, unless an earlier flag already failed', async (t) => {
  t.equal(parseConfig(['--help'], {}, CWD), 'help');
  t.equal(parseConfig(['-h'], {}, CWD), 'help');
  t.equal(parseConfig(['--port', '1', '--help', '--bogus'], {}, CWD), 'help', 'options after --help are not read');
  t.equal(errorOf(parseConfig(['--bogus', '--help'], {}, CWD)), 'unknown option --bogus');
  t.equal(errorOf(parseConfig(['--help'], { PACER_PORT: 'x' }, CWD)), 'PACER_PORT=x: expected an integer from 0 to 65535',
    'the environment is read before the flags');
});

// `defaultConfig(cwd)` places the store and sandboxes under the `cwd` argument,
// and so are `--store`, `--sandbox` and `--workload` given as relative paths.
t.test('relative paths given as flags resolve against the cwd argument, as the defaults do', async (t) => {
  const config = configOf(parseConfig(['--store', 'p.db', '--sandbox', 'sb', '--workload', 'w.yaml'], {}, CWD));
  t.equal(config.storePath, resolve(CWD, 'p.db'), '--store');
  t.equal(config.sandboxRoot, resolve(CWD, 'sb'), '--sandbox');
  t.equal(config.workload, resolve(CWD, 'w.yaml'), '--workload');
});

t.test('--gpu_scheduling_behavior reaches the core as gpuRestricted (restricted by default, as in Marathon)', async (t) => {
  t.match(schedulerOptionsOf(configOf(parseConfig([], {}, CWD))), { gpuRestricted: true });
  t.match(schedulerOptionsOf(configOf(parseConfig(['--gpu_scheduling_behavior', 'unrestricted'], {}, CWD))), { gpuRestricted: false });
  t.match(schedulerOptionsOf(configOf(parseConfig([], { PACER_GPU_SCHEDULING_BEHAVIOR: 'restricted' }, CWD))), { gpuRestricted: true });
});

t.test('maintenance mode: on by default with no draining, as in Marathon; --disable_maintenance_mode, --maintenance_mode and --draining_seconds reach the core', async (t) => {
  const cases: { name: string; argv?: string[]; env?: Record<string, string>; want: { maintenanceMode: boolean; drainingMs: number } }[] = [
    { name: 'defaults', want: { maintenanceMode: true, drainingMs: 0 } },
    { name: '--disable_maintenance_mode (a switch)', argv: ['--disable_maintenance_mode'], want: { maintenanceMode: false, drainingMs: 0 } },
    { name: 'the dashed spelling', argv: ['--disable-maintenance-mode'], want: { maintenanceMode: false, drainingMs: 0 } },
    { name: '--disable_maintenance_mode=false', argv: ['--disable_maintenance_mode=false'], want: { maintenanceMode: true, drainingMs: 0 } },
    { name: 'PACER_DISABLE_MAINTENANCE_MODE=true', env: { PACER_DISABLE_MAINTENANCE_MODE: 'true' }, want: { maintenanceMode: false, drainingMs: 0 } },
    { name: '--maintenance_mode after --disable_maintenance_mode: the last wins', argv: ['--disable_maintenance_mode', '--maintenance_mode'], want: { maintenanceMode: true, drainingMs: 0 } },
    { name: 'the flag wins over the variable', argv: ['--maintenance_mode'], env: { PACER_DISABLE_MAINTENANCE_MODE: 'true' }, want: { maintenanceMode: true, drainingMs: 0 } },
    { name: '--draining_seconds 300', argv: ['--draining_seconds', '300'], want: { maintenanceMode: true, drainingMs: 300_000 } },
    { name: 'PACER_DRAINING_SECONDS=0', env: { PACER_DRAINING_SECONDS: '0' }, want: { maintenanceMode: true, drainingMs: 0 } },
  ];
  for (const c of cases) {
    const options = schedulerOptionsOf(configOf(parseConfig(c.argv ?? [], c.env ?? {}, CWD)));
    t.same({ maintenanceMode: options.maintenanceMode, drainingMs: options.drainingMs }, c.want, c.name);
  }
  const text = usage();
  for (const [flag, env] of [['--disable_maintenance_mode', 'PACER_DISABLE_MAINTENANCE_MODE'], ['--maintenance_mode', 'PACER_MAINTENANCE_MODE']]) {
    t.match(text, new RegExp(`^  ${flag} +.*\\[${env}\\]$`, 'm'), `${flag} is documented as a switch with ${env}`);
  }
});

t.test('--unhealthy_kill_floor: a share from 0 to 1, read as the label is; absent by default; handed to the core', async (t) => {
  t.equal(configOf(parseConfig([], {}, CWD)).unhealthyKillFloor, undefined, 'default: each app\'s minimumHealthCapacity');
  t.notOk('unhealthyKillFloor' in schedulerOptionsOf(configOf(parseConfig([], {}, CWD))), 'the core keeps its default');
  for (const ok of ['0', '1', '0.25', '.5']) {
    const config = configOf(parseConfig(['--unhealthy_kill_floor', ok], {}, CWD));
    t.equal(schedulerOptionsOf(config).unhealthyKillFloor, Number(ok), `${ok} reaches the core`);
  }
  for (const bad of ['1.5', '-0.5', 'half', '', '1e-1']) {
    t.equal(errorOf(parseConfig([`--unhealthy_kill_floor=${bad}`], {}, CWD)), `--unhealthy_kill_floor ${bad}: expected a number from 0 to 1`, JSON.stringify(bad));
  }
});

t.test('the per-input bounds (issue 11 item 4): pacer\'s defaults 250 / 2000 / 500, whole numbers from 1 to 100000, handed to the core', async (t) => {
  t.match(schedulerOptionsOf(configOf(parseConfig([], {}, CWD))), { launchesPerInput: 250, launchesPerOfferBatch: 2000, instancesPerInput: 500 }, 'the defaults reach the core');
  const rows: [string, string, keyof SchedulerOptions][] = [
    ['--launches_per_input', 'PACER_LAUNCHES_PER_INPUT', 'launchesPerInput'],
    ['--launches_per_offer_batch', 'PACER_LAUNCHES_PER_OFFER_BATCH', 'launchesPerOfferBatch'],
    ['--instances_per_input', 'PACER_INSTANCES_PER_INPUT', 'instancesPerInput'],
  ];
  for (const [flag, env, option] of rows) {
    t.equal(schedulerOptionsOf(configOf(parseConfig([flag, '1'], {}, CWD)))[option], 1, `${flag} 1 reaches the core`);
    t.equal(schedulerOptionsOf(configOf(parseConfig([], { [env]: '100000' }, CWD)))[option], 100_000, `${env}=100000 reaches the core`);
    for (const bad of ['0', '100001', '2.5', 'many', '']) {
      t.equal(errorOf(parseConfig([`${flag}=${bad}`], {}, CWD)), `${flag} ${bad}: expected an integer from 1 to 100000`, `${flag} ${JSON.stringify(bad)} refused`);
    }
  }
});

t.test('--local_agent_ports: the default range is 31000 upward, 1000 ports per agent; a range reaches the local cluster', async (t) => {
  const dflt = configOf(parseConfig([], {}, CWD));
  t.equal(dflt.localAgentPorts, undefined, 'no range given: the local cluster\'s default');
  t.notOk('ports' in localClusterOptions(dflt, silentLog()), 'the local cluster picks its default');
  const given = configOf(parseConfig(['--local_agent_ports', ' 41000 - 41099 ', '--local_agents', '2'], {}, CWD));
  t.same(localClusterOptions(given, silentLog()).ports, [41000, 41099], 'handed to the local cluster');
  t.equal(errorOf(parseConfig(['--local_agent_ports', '41000-41099', '--port', '41050'], {}, CWD)),
    '--local_agent_ports 41000-41099 holds --port 41050: expected a range apart from the API\'s ports');
  t.match(configOf(parseConfig(['--local_agent_ports', '8000-8999', '--port', '0'], {}, CWD)), { localAgentPorts: [8000, 8999] }, '--port 0 takes a free port outside the range');
});

t.test('--local_agent_attributes: one list for every agent or one per agent, handed to the local cluster\'s agents, typed as Mesos types them', async (t) => {
  t.equal(configOf(parseConfig([], {}, CWD)).localAgentAttributes, undefined, 'none by default');
  t.notOk('agentAttributes' in localClusterOptions(configOf(parseConfig([], {}, CWD)), silentLog()), 'the local cluster gets none');
  const cases: { argv: string[]; env?: NodeJS.ProcessEnv; want: Record<string, string>[]; typed: Record<string, unknown>[] }[] = [
    { argv: ['--local_agent_attributes', 'rack:r1;zone:a'], want: [{ rack: 'r1', zone: 'a' }], typed: [{ rack: { text: 'r1' }, zone: { text: 'a' } }] },
    { argv: ['--local_agent_attributes', ' rack : r1 ; os:debian/12 '], want: [{ rack: 'r1', os: 'debian/12' }], typed: [{ rack: { text: 'r1' }, os: { text: 'debian/12' } }] },
    { argv: ['--local_agent_attributes', ''], want: [{}], typed: [{}] },
    { argv: ['--local_agents', '2', '--local_agent_attributes', 'rack:r1|rack:r2;gpu:no'], want: [{ rack: 'r1' }, { rack: 'r2', gpu: 'no' }], typed: [{ rack: { text: 'r1' } }, { rack: { text: 'r2' }, gpu: { text: 'no' } }] },
    { argv: ['--local_agents', '2'], env: { PACER_LOCAL_AGENT_ATTRIBUTES: 'level:10.5' }, want: [{ level: '10.5' }], typed: [{ level: { scalar: 10.5 } }] },
    {
      argv: ['--local_agent_attributes', 'level:10;gen:-2;big:2e3;ports:[31000-31005,30000-30001];disks:{ssd,hdd};none:{};v:1.2.3;odd:.5'],
      want: [{ level: '10', gen: '-2', big: '2e3', ports: '[31000-31005,30000-30001]', disks: '{ssd,hdd}', none: '{}', v: '1.2.3', odd: '.5' }],
      typed: [{
        level: { scalar: 10 }, gen: { scalar: -2 }, big: { scalar: 2000 }, ports: { ranges: [[31000, 31005], [30000, 30001]] }, disks: { set: ['ssd', 'hdd'] }, none: { set: [] },
        v: { text: '1.2.3' }, odd: { scalar: 0.5 },
      }],
    },
  ];
  for (const c of cases) {
    const config = configOf(parseConfig(c.argv, c.env ?? {}, CWD));
    t.same(config.localAgentAttributes, c.want, `${c.argv.join(' ')}: parsed`);
    const agents = resolveAgents(config.localAgents, undefined, localClusterOptions(config, silentLog()).agentAttributes);
    const attrs = agents.map((a) => Object.fromEntries(a.info.attributes.map(({ name, type: _type, ...value }) => [name, value])));
    t.same(attrs, agents.map((_, i) => c.typed[c.typed.length === 1 ? 0 : i]), `${c.argv.join(' ')}: the agents offer them typed`);
  }
});

t.test('--local_agent_domains: one fault domain for every agent or one per agent, which @region and @zone read', async (t) => {
  t.equal(configOf(parseConfig([], {}, CWD)).localAgentDomains, undefined, 'none by default');
  t.same(resolveAgents(1).map((a) => [a.info.region, a.info.zone]), [[undefined, undefined]], 'an agent without one has no region or zone, as a Mesos agent without --domain');
  const cases: { argv: string[]; env?: NodeJS.ProcessEnv; want: [string, string][] }[] = [
    { argv: ['--local_agent_domains', 'eu/eu-1'], want: [['eu', 'eu-1']] },
    { argv: ['--local_agents', '3', '--local_agent_domains', ' eu/a | eu/b|us/c'], want: [['eu', 'a'], ['eu', 'b'], ['us', 'c']] },
    { argv: ['--local_agents', '2'], env: { PACER_LOCAL_AGENT_DOMAINS: 'aws-us-east-1/aws-us-east-1a' }, want: [['aws-us-east-1', 'aws-us-east-1a'], ['aws-us-east-1', 'aws-us-east-1a']] },
  ];
  for (const c of cases) {
    const config = configOf(parseConfig(c.argv, c.env ?? {}, CWD));
    const options = localClusterOptions(config, silentLog());
    const agents = resolveAgents(config.localAgents, undefined, undefined, options.agentDomains);
    t.same(agents.map((a) => [a.info.region, a.info.zone]), c.want, `${c.argv.join(' ')}`);
  }
});

t.test('a zk:// URL with an IPv6 server is refused at start (README known gaps: the ZooKeeper client cannot parse it), for --zk and --master alike', async (t) => {
  const problem = 'IPv6 server addresses are not supported; name the server by host name or IPv4';
  t.equal(errorOf(parseConfig(['--zk', 'zk://[::1]:2181/pacer'], {}, CWD)), `--zk zk://[::1]:2181/pacer: zk://[::1]:2181/pacer: ${problem}`);
  t.equal(errorOf(parseConfig(['--cluster', 'mesos', '--master', 'zk://zk1:2181,[fd00::2]/mesos'], {}, CWD)),
    `--master zk://zk1:2181,[fd00::2]/mesos: zk://zk1:2181,[fd00::2]:2181/mesos: ${problem}`);
  const hidden = errorOf(parseConfig(['--zk', 'zk://u:hunter2@[::1]:2181/pacer'], {}, CWD));
  t.notMatch(hidden, /hunter2/, 'credentials stay hidden');
  t.match(configOf(parseConfig(['--zk', 'zk://zk1:2181,10.0.0.2/pacer'], {}, CWD)), { zk: 'zk://zk1:2181,10.0.0.2/pacer' }, 'host names and IPv4 are taken');
});

t.test('credentials given in --zk, --master or --http_credentials never appear in an error', async (t) => {
  const cases: { argv?: string[]; env?: Record<string, string>; error: string }[] = [
    { argv: ['--zk', 'zk://u:hunter2@/p'], error: '--zk zk://xxxxxxxx@/p: bad ZooKeeper URL zk://xxxxxxxx@/p: it names no ZooKeeper server' },
    { argv: ['--zk=u:hunter2@zk1:2181/p'], error: '--zk xxxxxxxx@zk1:2181/p: bad ZooKeeper URL xxxxxxxx@zk1:2181/p: it must start with zk://' },
    { argv: ['--zk', 'http://u:hunter2@zk1:2181/p'], error: '--zk http://xxxxxxxx@zk1:2181/p: bad ZooKeeper URL http://xxxxxxxx@zk1:2181/p: it must start with zk://' },
    { env: { PACER_ZK: 'zk://u:hunter2@zk1:x/p' }, error: 'PACER_ZK=zk://xxxxxxxx@zk1:x/p: bad ZooKeeper URL zk://xxxxxxxx@zk1:x/p: "zk1:x" is not host[:port]' },
    { argv: ['--master', 'ops:hunter2@m:5050'], error: '--master xxxxxxxx@m:5050: expected http://host:port, https://host:port or zk://host:port/path' },
    { argv: ['--master', 'ftp://ops:hunter2@m:5050'], error: '--master ftp://xxxxxxxx@m:5050: expected http://host:port, https://host:port or zk://host:port/path' },
    { argv: ['--master', 'zk://ops:hunter2@/mesos'], error: '--master zk://xxxxxxxx@/mesos: bad ZooKeeper URL zk://xxxxxxxx@/mesos: it names no ZooKeeper server' },
    { env: { PACER_MASTER: 'http://' }, error: 'PACER_MASTER=http://: expected http://host:port, https://host:port or zk://host:port/path' },
    { argv: ['--http_credentials', ''], error: '--http_credentials (hidden): pair 1: expected user:password (a non-empty user without \':\' and a non-empty password)' },
    { argv: ['--http_credentials', 'hunter2'], error: '--http_credentials (hidden): pair 1: expected user:password (a non-empty user without \':\' and a non-empty password)' },
    { env: { PACER_HTTP_CREDENTIALS: 'admin:hunter2,:hunter3' }, error: 'PACER_HTTP_CREDENTIALS=(hidden): pair 2: expected user:password (a non-empty user without \':\' and a non-empty password)' },
  ];
  for (const c of cases) {
    const error = errorOf(parseConfig(c.argv ?? [], c.env ?? {}, CWD));
    t.equal(error, c.error, c.error);
    t.notMatch(error, /hunter2/, 'no password');
  }
  t.equal(errorOf(parseConfig(['--master', 'http://ops:hunter2@m:5050'], {}, CWD)), `--master http://xxxxxxxx@m:5050: ${HTTP_MASTER_CREDENTIALS}`, 'an http(s) master URL takes no credentials');
  t.match(configOf(parseConfig(['--master', 'zk://ops:hunter2@zk1:2181/mesos'], {}, CWD)), { master: 'zk://ops:hunter2@zk1:2181/mesos' });
  t.notMatch(usage(), /hunter2/);
});

t.test('--zk: a zk:// URL, the local cluster, and an address the other pacers can reach', async (t) => {
  t.match(configOf(parseConfig([], {}, CWD)), { zkSessionTimeoutMs: 10_000 }, 'Marathon\'s session timeout by default');
  t.equal(configOf(parseConfig([], {}, CWD)).zk, undefined, 'no --zk: one pacer, always the leader');
  t.match(errorOf(parseConfig(['--zk', 'http://zk1:2181/pacer'], {}, CWD)), /^--zk http:\/\/zk1:2181\/pacer: bad ZooKeeper URL .*must start with zk:\/\//);
  t.match(errorOf(parseConfig(['--zk', 'zk://zk1/p', '--cluster', 'sim'], {}, CWD)), /^--zk: the simulated cluster keeps its state in memory and cannot fail over/);
  t.match(configOf(parseConfig(['--zk', 'zk://zk1/p', '--cluster', 'mesos', '--master', 'http://m:5050'], {}, CWD)), { zk: 'zk://zk1/p', cluster: 'mesos' }, 'Mesos with HA');
  t.equal(errorOf(parseConfig(['--zk', 'zk://zk1/p', '--address', '0.0.0.0'], {}, CWD)), '--zk with --address 0.0.0.0: give --hostname, the name the other pacers reach this one by');
  t.match(configOf(parseConfig(['--zk', 'zk://zk1/p', '--address', '0.0.0.0', '--hostname', 'p1'], {}, CWD)), { zk: 'zk://zk1/p', hostname: 'p1' });
  t.match(errorOf(parseConfig(['--zk_session_timeout', '10'], {}, CWD)), /expected an integer from 1000/);
  t.match(errorOf(parseConfig(['--hostname', 'a b'], {}, CWD)), /expected a host name or address/);
});
