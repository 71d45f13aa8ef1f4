import { DEFAULT_SCHEDULER_OPTIONS } from '../../../src/scheduler/scheduler-options';
import t from 'tap';
import { makeApi } from '../api-fixture';
import type { ApiConfig } from '../../../src/api/api-deps';
import { PROXY_CONNECT_TIMEOUT_MS, PROXY_READ_TIMEOUT_MS } from '../../../src/ha/leader-proxy';
import { buildServer } from '../../../src/api/server';
import { MARATHON_API_VERSION, splitHostPort } from '../../../src/api/v2/system/info-json';

const MARATHON_CONFIG_KEYS = [
  'access_control_allow_origin', 'checkpoint', 'decline_offer_duration', 'default_network_name', 'env_vars_prefix',
  'executor', 'failover_timeout', 'features', 'framework_name', 'ha', 'hostname', 'launch_token',
  'launch_token_refresh_interval', 'leader_proxy_connection_timeout_ms', 'leader_proxy_read_timeout_ms', 'local_port_max',
  'local_port_min', 'master', 'max_instances_per_offer', 'mesos_bridge_name', 'mesos_heartbeat_failure_threshold',
  'mesos_heartbeat_interval', 'mesos_leader_ui_url', 'mesos_role', 'mesos_user', 'new_group_enforce_role',
  'min_revive_offers_interval', 'offer_matching_timeout', 'on_elected_prepare_timeout', 'reconciliation_initial_delay',
  'reconciliation_interval', 'scale_apps_initial_delay', 'scale_apps_interval', 'store_cache',
  'task_launch_confirm_timeout', 'task_launch_timeout', 'task_lost_expunge_initial_delay', 'task_lost_expunge_interval',
  'task_reservation_timeout', 'webui_url', 'maintenance_mode',
];

const ZK_KEYS = ['zk', 'zk_compression', 'zk_compression_threshold', 'zk_connection_timeout', 'zk_max_node_size', 'zk_max_versions', 'zk_session_timeout', 'zk_timeout'];

t.test('GET /v2/info (fact 93)', async (t) => {
  const fx = makeApi({ config: { master: 'zk://user:secret@zk1:2181/mesos', defaultRole: 'ops', features: ['task_killing'], defaultNetworkName: 'dcos' } });
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/v2/info' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /application\/json/);
  const info = JSON.parse(res.body) as Record<string, Record<string, unknown>>;
  t.match(info, {
    name: 'marathon',
    version: MARATHON_API_VERSION,
    buildref: 'pacer-0.1.0-0123456789ab',
    elected: true,
    leader: '127.0.0.1:8080',
    frameworkId: 'pacer-test-framework',
    http_config: { http_port: 8080, https_port: 8443 },
  });
  t.match(info.version, /^1\.11\.\d+$/, 'the Marathon API version pacer speaks (clients gate features on it), not pacer\'s own');
  t.same(Object.keys(info).sort(), ['buildref', 'elected', 'frameworkId', 'http_config', 'leader', 'marathon_config', 'name', 'version', 'zookeeper_config'],
    'Marathon\'s fields and no others');
  t.same(Object.keys(info.marathon_config).sort(), [...MARATHON_CONFIG_KEYS].sort(), 'every marathon_config key');
  t.match(info.marathon_config, {
    master: 'zk://xxxxxxxx@zk1:2181/mesos', mesos_role: 'ops', features: ['task_killing'], default_network_name: 'dcos',
    new_group_enforce_role: 'off', hostname: '127.0.0.1', ha: false, framework_name: 'marathon',
  });
  t.strictSame({
    decline_offer_duration: info.marathon_config.decline_offer_duration,
    local_port_min: info.marathon_config.local_port_min,
    local_port_max: info.marathon_config.local_port_max,
    max_instances_per_offer: info.marathon_config.max_instances_per_offer,
    reconciliation_interval: info.marathon_config.reconciliation_interval,
    scale_apps_interval: info.marathon_config.scale_apps_interval,
  }, {
    decline_offer_duration: DEFAULT_SCHEDULER_OPTIONS.declineRefuseMs,
    local_port_min: 10_000,
    local_port_max: 20_000,
    max_instances_per_offer: DEFAULT_SCHEDULER_OPTIONS.maxInstancesPerOffer,
    reconciliation_interval: DEFAULT_SCHEDULER_OPTIONS.reconciliationIntervalMs,
    scale_apps_interval: DEFAULT_SCHEDULER_OPTIONS.scaleAppsIntervalMs,
  }, 'the options the core runs with, in Marathon\'s units');
  t.same(Object.keys(info.zookeeper_config).sort(), [...ZK_KEYS].sort());
  t.ok(Object.values(info.zookeeper_config).every((v) => v === null), 'no ZooKeeper');
});

t.test('marathon_config: every key with a default has its effective value, never null (Marathon writes its flags\' defaults)', async (t) => {
  // [key, the API's config, the value]: Marathon's defaults (MarathonConf.scala and its traits) where pacer has no
  // such setting, pacer's own where it has one; null only for flags without a default that were not given.
  const rows: ReadonlyArray<readonly [string, Partial<ApiConfig>, unknown]> = [
    ['checkpoint', {}, true],
    ['executor', {}, '//cmd'],
    ['failover_timeout', {}, 604_800],
    ['failover_timeout', { mesosFramework: { name: 'm', user: 'u', failoverTimeoutSeconds: 60 } }, 60],
    ['framework_name', {}, 'marathon'],
    ['framework_name', { mesosFramework: { name: 'pacer-prod', failoverTimeoutSeconds: 60 } }, 'pacer-prod'],
    ['mesos_user', { mesosFramework: { name: 'm', user: 'svc', failoverTimeoutSeconds: 60 } }, 'svc'],
    ['launch_token', {}, 100],
    ['launch_token_refresh_interval', {}, 30_000],
    ['leader_proxy_connection_timeout_ms', {}, PROXY_CONNECT_TIMEOUT_MS],
    ['leader_proxy_read_timeout_ms', {}, PROXY_READ_TIMEOUT_MS],
    ['mesos_bridge_name', {}, 'mesos-bridge'],
    ['mesos_heartbeat_failure_threshold', {}, 5],
    ['mesos_heartbeat_interval', {}, 15_000],
    ['min_revive_offers_interval', {}, 5_000],
    ['offer_matching_timeout', {}, 3_000],
    ['on_elected_prepare_timeout', {}, 180_000],
    ['reconciliation_initial_delay', {}, 15_000],
    ['scale_apps_initial_delay', {}, 15_000],
    ['store_cache', {}, true],
    ['task_launch_confirm_timeout', {}, 300_000],
    ['task_launch_timeout', {}, 300_000],
    ['task_lost_expunge_initial_delay', {}, 300_000],
    ['task_lost_expunge_interval', {}, 30_000],
    ['task_reservation_timeout', {}, 20_000],
    // Flags without a default in Marathon: null until given.
    ['access_control_allow_origin', {}, null],
    ['env_vars_prefix', {}, null],
    ['default_network_name', {}, null],
    ['webui_url', {}, null],
    ['mesos_leader_ui_url', {}, null],
  ];
  for (const [key, config, want] of rows) {
    const fx = makeApi({ config });
    const info = JSON.parse((await fx.app.inject({ method: 'GET', url: '/v2/info' })).body) as Record<string, Record<string, unknown>>;
    await fx.app.close();
    t.strictSame(info.marathon_config[key], want, `${key} ${JSON.stringify(config)}`);
  }
  const fx = makeApi();
  const info = JSON.parse((await fx.app.inject({ method: 'GET', url: '/v2/info' })).body) as Record<string, Record<string, unknown>>;
  await fx.app.close();
  const nulls = Object.entries(info.marathon_config).filter(([, v]) => v === null).map(([k]) => k).sort();
  t.same(nulls, ['access_control_allow_origin', 'default_network_name', 'env_vars_prefix', 'mesos_leader_ui_url', 'webui_url'],
    'only flags without a default are null');
  t.type(info.marathon_config.mesos_user, 'string', 'mesos_user: the user running pacer when not given');
});

t.test('marathon_config.maintenance_mode: the --[disable_]maintenance_mode toggle the core runs with, as Marathon reports it', async (t) => {
  const cases: { name: string; options: { maintenanceMode?: boolean; drainingMs?: number }; want: boolean }[] = [
    { name: 'on by default', options: {}, want: true },
    { name: 'off with --disable_maintenance_mode', options: { maintenanceMode: false }, want: false },
    { name: 'on, with draining seconds (not a key of its own)', options: { maintenanceMode: true, drainingMs: 300_000 }, want: true },
  ];
  for (const c of cases) {
    const fx = makeApi({ options: c.options });
    const info = JSON.parse((await fx.app.inject({ method: 'GET', url: '/v2/info' })).body) as Record<string, Record<string, unknown>>;
    await fx.app.close();
    t.equal(info.marathon_config.maintenance_mode, c.want, c.name);
    t.notOk('draining_seconds' in info.marathon_config, `${c.name}: no draining_seconds key (fact 93 has none)`);
  }
});

t.test('frameworkId is null before subscription', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const app = buildServer({ deps: { ...fx.deps, frameworkId: () => undefined }, stream: { close: () => undefined } });
  t.teardown(() => app.close());
  const info = JSON.parse((await app.inject({ method: 'GET', url: '/v2/info' })).body) as Record<string, unknown>;
  t.equal(info.frameworkId, null);
});

// The masking of /v2/info's master is the one rule of src/cluster/url-credentials.ts (its own test).
t.test('splitHostPort', async (t) => {
  t.same(splitHostPort('localhost:80'), { host: 'localhost', port: 80 });
  t.same(splitHostPort('localhost'), { host: 'localhost', port: null });
  t.same(splitHostPort('[::1]'), { host: '[::1]', port: null });
  t.same(splitHostPort('[::1]:8080'), { host: '[::1]', port: 8080 });
});

t.test('GET /v2/leader (fact 94)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/v2/leader' });
  t.equal(res.statusCode, 200);
  t.same(JSON.parse(res.body), { leader: '127.0.0.1:8080' });
  t.equal(res.headers['x-marathon-leader'], 'http://127.0.0.1:8080');
});

t.test('DELETE /v2/leader (fact 95)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'DELETE', url: '/v2/leader' });
  t.equal(res.statusCode, 200);
  t.same(JSON.parse(res.body), { message: 'Leadership abdicated' });
  for (const query of ['?backup=file:///tmp/x', '?restore=s3://b/k']) {
    const refused = await fx.app.inject({ method: 'DELETE', url: `/v2/leader${query}` });
    t.equal(refused.statusCode, 422, query);
    t.match(JSON.parse(refused.body), { message: /pacer keeps no state backups/ }, query);
  }
});

t.test('DELETE /v2/leader calls the runtime abdication hook after answering', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  let calls = 0;
  const deps = { ...fx.deps, abdicate: () => void calls++ };
  const app = buildServer({ deps, stream: { close: () => undefined } });
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'DELETE', url: '/v2/leader' });
  t.equal(res.statusCode, 200);
  t.equal(calls, 1);
});

t.test('GET /ping (fact 96)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const cases: { accept?: string; status: number; type?: RegExp; body: string }[] = [
    { status: 200, type: /^text\/plain/, body: 'pong' },
    { accept: '*/*', status: 200, type: /^text\/plain/, body: 'pong' },
    { accept: 'text/*', status: 200, type: /^text\/plain/, body: 'pong' },
    { accept: 'text/plain', status: 200, type: /^text\/plain/, body: 'pong' },
    { accept: 'application/json', status: 200, type: /^application\/json/, body: '"pong"' },
    { accept: 'text/html', status: 200, type: /^text\/html/, body: 'pong' },
    { accept: 'image/png', status: 204, body: '' },
  ];
  for (const c of cases) {
    const res = await fx.app.inject({ method: 'GET', url: '/ping', headers: c.accept === undefined ? {} : { accept: c.accept } });
    const name = `Accept: ${c.accept ?? '(none)'}`;
    t.equal(res.statusCode, c.status, name);
    t.equal(res.body, c.body, name);
    if (c.type !== undefined) t.match(res.headers['content-type'], c.type, name);
  }
  const head = await fx.app.inject({ method: 'HEAD', url: '/ping' });
  t.equal(head.statusCode, 200, 'HEAD /ping');
  t.equal(head.body, '');
});

t.test('GET / → 302 /ui/ (fact 97)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/' });
  t.equal(res.statusCode, 302);
  t.equal(res.headers.location, '/ui/');
});

t.test('marathon_config.webui_url: --webui_url as given, null without it (Marathon reports its flag, not the URL its driver derives)', async (t) => {
  const cases: { name: string; webuiUrl?: string; want: string | null }[] = [
    { name: 'not given', want: null },
    { name: 'given', webuiUrl: 'https://pacer.example.com/ui', want: 'https://pacer.example.com/ui' },
  ];
  for (const c of cases) {
    const fx = makeApi({ config: c.webuiUrl === undefined ? {} : { webuiUrl: c.webuiUrl } });
    const res = await fx.app.inject({ method: 'GET', url: '/v2/info' });
    const info = JSON.parse(res.body) as { marathon_config: Record<string, unknown> };
    t.equal(info.marathon_config.webui_url, c.want, c.name);
    await fx.app.close();
  }
});
