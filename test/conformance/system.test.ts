import t from 'tap';
import { behaviour, MARATHON, pacer } from './conformance-kit';

// System endpoints and what every response carries (marathon-api-facts.md sections A and I).

/** `marathon_config` of Marathon 1.11's InfoResource, `mesos_leader_ui_url` included. */
const MARATHON_CONFIG_KEYS = [
  'access_control_allow_origin', 'checkpoint', 'decline_offer_duration', 'default_network_name', 'env_vars_prefix', 'executor',
  'failover_timeout', 'features', 'framework_name', 'ha', 'hostname', 'launch_token', 'launch_token_refresh_interval',
  'leader_proxy_connection_timeout_ms', 'leader_proxy_read_timeout_ms', 'local_port_max', 'local_port_min', 'master',
  'max_instances_per_offer', 'mesos_bridge_name', 'mesos_heartbeat_failure_threshold', 'mesos_heartbeat_interval',
  'mesos_leader_ui_url', 'mesos_role', 'mesos_user', 'new_group_enforce_role', 'min_revive_offers_interval',
  'offer_matching_timeout', 'on_elected_prepare_timeout', 'reconciliation_initial_delay', 'reconciliation_interval',
  'scale_apps_initial_delay', 'scale_apps_interval', 'store_cache', 'task_launch_confirm_timeout', 'task_launch_timeout',
  'task_lost_expunge_initial_delay', 'task_lost_expunge_interval', 'task_reservation_timeout', 'webui_url', 'maintenance_mode',
];

t.test(behaviour('GET /v2/info: name "marathon", the Marathon version pacer speaks, buildref, leader, config blocks (fact 93)', MARATHON.info), async (t) => {
  const p = await pacer(t);
  const res = await p.call('GET', '/v2/info');
  t.equal(res.status, 200);
  const info = res.json;
  t.same(Object.keys(info).sort(), ['buildref', 'elected', 'frameworkId', 'http_config', 'leader', 'marathon_config', 'name', 'version', 'zookeeper_config']);
  t.equal(info.name, 'marathon');
  t.match(info.version, /^1\.11\.\d+$/, 'clients gate features on it (several refuse anything older than 0.8.1 or 0.11.0)');
  t.match(info.buildref, /^pacer-\d+\.\d+\.\d+-[0-9a-z]+$/, "pacer's own version and commit");
  t.equal(info.elected, true);
  t.match(info.leader, /^127\.0\.0\.1:\d+$/);
  t.same(info.http_config, { http_port: 8080, https_port: 8443 }, "Marathon's https_port default, not null");
  t.same(Object.keys(info.marathon_config).sort(), [...MARATHON_CONFIG_KEYS].sort());
  t.same(Object.keys(info.zookeeper_config).sort(), ['zk', 'zk_compression', 'zk_compression_threshold', 'zk_connection_timeout', 'zk_max_node_size', 'zk_max_versions', 'zk_session_timeout', 'zk_timeout']);
});

t.test(behaviour('GET /v2/leader → {"leader": "host:port"} (fact 94)', MARATHON.leader), async (t) => {
  const p = await pacer(t);
  const res = await p.call('GET', '/v2/leader');
  t.equal(res.status, 200);
  t.same(Object.keys(res.json), ['leader']);
});

t.test(behaviour('GET /ping: pong as text/plain, "pong" for Accept: application/json, 204 when nothing offered is acceptable (fact 96)', MARATHON.system), async (t) => {
  const p = await pacer(t);
  const cases: [string, number, string | undefined, string][] = [
    ['*/*', 200, 'text/plain', 'pong'],
    ['application/json', 200, 'application/json', '"pong"'],
    ['text/html', 200, 'text/html', 'pong'],
    ['image/png', 204, undefined, ''],
  ];
  for (const [accept, status, type, body] of cases) {
    const res = await p.call('GET', '/ping', undefined, { Accept: accept });
    t.equal(res.status, status, accept);
    if (type !== undefined) t.match(res.headers.get('content-type'), new RegExp(`^${type}`), accept);
    t.equal(res.text, body, accept);
  }
});

t.test(behaviour('every response is uncacheable and names the leader (fact 12)', MARATHON.cacheFilter), async (t) => {
  const p = await pacer(t);
  for (const path of ['/v2/apps', '/v2/info', '/v2/apps/nope']) {
    const res = await p.call('GET', path);
    t.equal(res.headers.get('cache-control'), 'no-cache, no-store, must-revalidate', path);
    t.equal(res.headers.get('pragma'), 'no-cache', path);
    t.equal(res.headers.get('expires'), '0', path);
    t.match(res.headers.get('x-marathon-leader'), /^http:\/\/127\.0\.0\.1:\d+$/, path);
  }
});

t.test(behaviour('GET / → 302 to /ui/ (fact 97)', MARATHON.system), async (t) => {
  const p = await pacer(t);
  const res = await p.call('GET', '/');
  t.equal(res.status, 302);
  t.equal(res.headers.get('location'), '/ui/');
});

t.test(behaviour('an unknown route → 404 JSON (pacer does not copy Marathon 1.11\'s 500 "URI not found", fact 10; shared/spec/README.md)', MARATHON.exceptionMapper), async (t) => {
  const p = await pacer(t);
  const res = await p.call('GET', '/v2/nope');
  t.equal(res.status, 404);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.type(res.json.message, 'string');
});
