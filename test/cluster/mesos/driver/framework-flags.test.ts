import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { MAX_FAILOVER_TIMEOUT_S, MAX_FRAMEWORK_NAME_LENGTH, MAX_MESOS_USER_LENGTH, MAX_WEBUI_URL_LENGTH, parseConfig, type PacerConfig } from '../../../../src/runtime/config';
import { frameworkAddressOf, startMesos } from '../../../../src/runtime/start-mesos';
import { FakeMaster } from '../fake-master/fake-master';
import { patientSignal } from '../../../harness/wait';
import { FAST } from './driver-fixture';

/**
 * Marathon's framework flags (`--framework_name`, `--mesos_user`, `--failover_timeout`, with
 * `--mesos_role`): what the fake master receives in SUBSCRIBE's FrameworkInfo, what `/v2/info`
 * reports, and the values refused at start (docs/limits.md).
 */

const { user: _fixedUser, ...timings } = FAST;
const quiet = { driver: { ...timings, logger: { info: () => undefined, warn: () => undefined } } };

function configOf(t: Test, master: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): PacerConfig {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-framework-flags-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const parsed = parseConfig(['--cluster', 'mesos', '--master', master, '--port', '0', '--store', join(dir, 'pacer.db'), ...args], env, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  return parsed;
}

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly want: {
    readonly name: string; readonly user: string; readonly failoverTimeout: number; readonly roles: readonly string[];
    readonly hostname: string; readonly webuiUrl: string | undefined;
  };
}

const cases: readonly Case[] = [
  {
    name: 'defaults: Marathon\'s name, the user running pacer, one week, role *',
    // The API's port is 0 here (chosen when it listens, after SUBSCRIBE): no web UI URL to derive.
    args: [], want: { name: 'marathon', user: userInfo().username, failoverTimeout: 604_800, roles: ['*'], hostname: hostname(), webuiUrl: undefined },
  },
  {
    name: 'flags',
    args: [
      '--framework_name', 'pacer-prod', '--mesos_user', 'nobody', '--failover_timeout', '3600', '--mesos_role', 'web',
      '--hostname', 'pacer-1.example', '--webui_url', 'https://pacer.example/ui',
    ],
    want: { name: 'pacer-prod', user: 'nobody', failoverTimeout: 3600, roles: ['web'], hostname: 'pacer-1.example', webuiUrl: 'https://pacer.example/ui' },
  },
  {
    name: 'environment variables, and a failover timeout of 0 (tasks die with the subscription)',
    args: [], env: { PACER_FRAMEWORK_NAME: 'from env', PACER_MESOS_USER: 'svc-pacer', PACER_FAILOVER_TIMEOUT: '0', PACER_HOSTNAME: 'h.example', PACER_WEBUI_URL: 'http://h.example:8080' },
    want: { name: 'from env', user: 'svc-pacer', failoverTimeout: 0, roles: ['*'], hostname: 'h.example', webuiUrl: 'http://h.example:8080' },
  },
];

for (const c of cases) {
  t.test(`SUBSCRIBE carries the framework flags: ${c.name}`, async (t) => {
    const master = await FakeMaster.start();
    t.teardown(() => master.close());
    const pacer = await startMesos(configOf(t, master.url, c.args, c.env), quiet);
    t.teardown(() => pacer.close());
    const subscribe = await master.waitForCall('SUBSCRIBE');
    const info = subscribe.call.subscribe?.frameworkInfo;
    t.equal(info?.name, c.want.name, 'FrameworkInfo.name');
    t.equal(info?.user, c.want.user, 'FrameworkInfo.user');
    t.equal(info?.failoverTimeout, c.want.failoverTimeout, 'FrameworkInfo.failover_timeout (seconds)');
    t.same(info?.roles, c.want.roles, 'FrameworkInfo.roles');
    t.equal(info?.role, undefined, 'never the deprecated role');
    t.equal(info?.hostname, c.want.hostname, 'FrameworkInfo.hostname: --hostname, else the machine\'s name (Marathon\'s default)');
    t.equal(info?.webuiUrl, c.want.webuiUrl, 'FrameworkInfo.webui_url');
    const answer = await fetch(`http://${pacer.listening[0]?.address ?? pacer.address}/v2/info`, { signal: patientSignal() });
    const reported = (await answer.json() as { marathon_config: Record<string, unknown> }).marathon_config;
    t.match(reported, { framework_name: c.want.name, mesos_user: c.want.user, failover_timeout: c.want.failoverTimeout, mesos_role: c.want.roles[0] }, '/v2/info reports them');
    t.equal(info?.checkpoint, true, 'FrameworkInfo.checkpoint');
    t.equal(reported.checkpoint, true, '/v2/info reports checkpointing as the FrameworkInfo asks for it');
  });
}

t.test('a pacer that fails over resubscribes with the same FrameworkInfo fields and the framework id', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const config = configOf(t, master.url, ['--framework_name', 'pacer-ha', '--mesos_user', 'nobody', '--failover_timeout', '120']);
  const first = await startMesos(config, quiet);
  await master.waitForStream();
  const frameworkId = master.frameworkId;
  // The core saved the id before it reconciles (its answer to SUBSCRIBED): a restart finds it in the store.
  await master.waitForCall('RECONCILE');
  await first.close();
  const second = await startMesos(config, quiet);
  t.teardown(() => second.close());
  const again = (await master.waitForCall('SUBSCRIBE', 2)).call;
  t.equal(again.frameworkId?.value, frameworkId, 'the same framework id');
  t.match(again.subscribe?.frameworkInfo, { id: { value: frameworkId }, name: 'pacer-ha', user: 'nobody', failoverTimeout: 120, hostname: hostname() });
});

t.test('the web UI URL without --webui_url is derived as Marathon derives it', async (t) => {
  const cases: readonly { readonly args: readonly string[]; readonly want: { hostname: string; webuiUrl?: string } }[] = [
    { args: ['--port', '8080'], want: { hostname: hostname(), webuiUrl: `http://${hostname()}:8080` } },
    { args: ['--port', '9000', '--hostname', 'pacer.example'], want: { hostname: 'pacer.example', webuiUrl: 'http://pacer.example:9000' } },
    { args: ['--hostname', 'pacer.example', '--ssl_cert', 'c.pem', '--ssl_key', 'k.pem'], want: { hostname: 'pacer.example', webuiUrl: 'https://pacer.example:8443' } },
    { args: ['--hostname', 'pacer.example', '--ssl_cert', 'c.pem', '--ssl_key', 'k.pem', '--https_port', '0'], want: { hostname: 'pacer.example' } },
    { args: ['--hostname', '::1', '--port', '8080'], want: { hostname: '::1', webuiUrl: 'http://[::1]:8080' } },
    { args: ['--port', '0'], want: { hostname: hostname() } },
    { args: ['--port', '0', '--webui_url', 'http://lb.example/pacer'], want: { hostname: hostname(), webuiUrl: 'http://lb.example/pacer' } },
  ];
  for (const c of cases) {
    const parsed = parseConfig(['--cluster', 'mesos', '--master', 'http://127.0.0.1:5050', ...c.args], {}, tmpdir());
    if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
    t.same(frameworkAddressOf(parsed), c.want, c.args.join(' '));
  }
});

const refused: readonly { readonly args: readonly string[]; readonly message: RegExp }[] = [
  { args: ['--framework_name', ''], message: /--framework_name : expected a name of 1 to 256 printable characters/ },
  { args: ['--framework_name', '   '], message: /--framework_name/ },
  { args: ['--framework_name', 'a\nb'], message: /--framework_name/ },
  { args: ['--framework_name', 'x'.repeat(MAX_FRAMEWORK_NAME_LENGTH + 1)], message: /--framework_name/ },
  { args: ['--mesos_user', ''], message: /--mesos_user : expected a user name/ },
  { args: ['--mesos_user', 'two words'], message: /--mesos_user/ },
  { args: ['--mesos_user', 'a/b'], message: /--mesos_user/ },
  { args: ['--mesos_user', 'u'.repeat(MAX_MESOS_USER_LENGTH + 1)], message: /--mesos_user/ },
  { args: ['--failover_timeout', '-1'], message: /--failover_timeout -1: expected an integer from 0 to 315360000/ },
  { args: ['--failover_timeout', '1.5'], message: /--failover_timeout/ },
  { args: ['--failover_timeout', 'week'], message: /--failover_timeout/ },
  { args: ['--failover_timeout', String(MAX_FAILOVER_TIMEOUT_S + 1)], message: /--failover_timeout/ },
  { args: ['--webui_url', 'pacer.example:8080'], message: /--webui_url pacer\.example:8080: expected an http:\/\/ or https:\/\/ URL/ },
  { args: ['--webui_url', 'ftp://pacer.example/'], message: /--webui_url/ },
  { args: ['--webui_url', ''], message: /--webui_url/ },
  { args: ['--webui_url', `http://${'h'.repeat(MAX_WEBUI_URL_LENGTH)}`], message: /--webui_url/ },
];

t.test('values outside the bounds are refused at start, naming the flag', async (t) => {
  for (const r of refused) {
    const parsed = parseConfig(['--cluster', 'mesos', '--master', 'http://127.0.0.1:5050', ...r.args], {}, tmpdir());
    t.ok(typeof parsed === 'object' && 'error' in parsed, `${r.args.join(' ').slice(0, 60)} is refused`);
    if (typeof parsed === 'object' && 'error' in parsed) t.match(parsed.error, r.message);
  }
  const at = parseConfig(['--framework_name', 'x'.repeat(MAX_FRAMEWORK_NAME_LENGTH), '--mesos_user', 'u'.repeat(MAX_MESOS_USER_LENGTH), '--failover_timeout', String(MAX_FAILOVER_TIMEOUT_S)], {}, tmpdir());
  t.ok(typeof at === 'object' && !('error' in at), 'the bounds themselves are accepted');
});
