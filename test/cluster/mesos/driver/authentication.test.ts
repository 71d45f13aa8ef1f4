import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../../src/runtime/config';
import { startMesos } from '../../../../src/runtime/start-mesos';
import { FAST, makeDriver } from './driver-fixture';
import { FakeMaster } from '../fake-master/fake-master';
import { waitUntil } from '../fake-master/wait-until';

/**
 * Framework authentication toward the master (spec section 5; mesos-v1-scheduler-api.md §1.1):
 * HTTP basic with the principal and secret on SUBSCRIBE and every call, the principal in
 * FrameworkInfo, and a 401 that stops the driver with a clear error instead of a retry loop.
 */

const CREDENTIALS = { principal: 'pacer', secret: 'mesos-s3cret-value' };
const EXPECTED_HEADER = `Basic ${Buffer.from('pacer:mesos-s3cret-value').toString('base64')}`;

async function authMaster(): Promise<FakeMaster> {
  const master = await FakeMaster.start();
  master.credentials = CREDENTIALS;
  return master;
}

t.test('with the right credentials: SUBSCRIBE and every call carry them; FrameworkInfo names the principal', async (tt) => {
  const master = await authMaster();
  const f = await makeDriver(tt, { master, options: { credentials: CREDENTIALS } });
  await f.waitInput('subscribed');
  f.driver.reconcile([{ taskId: 't-1', agentId: 'a-1' }]);
  f.driver.kill('t-1', 'a-1', 1000);
  await master.waitForCall('KILL');
  const subscribe = master.callsOf('SUBSCRIBE')[0];
  tt.equal(subscribe.authorization, EXPECTED_HEADER);
  tt.equal(subscribe.call.subscribe?.frameworkInfo.principal, 'pacer');
  for (const call of master.calls) tt.equal(call.authorization, EXPECTED_HEADER, `${call.call.type} is authenticated`);
  tt.ok(master.calls.some((c) => c.call.type === 'RECONCILE'), 'calls other than SUBSCRIBE were checked');
  tt.equal(master.unauthorized, 0);
  tt.same(f.fatal, []);
  tt.notMatch(f.logs.join('\n'), /mesos-s3cret-value/, 'the secret is not logged');
});

t.test('wrong credentials: one 401, a clear error naming the principal and the flags, no retry loop', async (tt) => {
  const master = await authMaster();
  const f = await makeDriver(tt, { master, options: { credentials: { principal: 'pacer', secret: 'wrong-secret' } } });
  await waitUntil(() => f.fatal[0], 5000, 'onFatal');
  tt.match(f.fatal[0].message, /the Mesos master at http:\/\/127\.0\.0\.1:\d+ refused the credentials of principal 'pacer' \(401 Unauthorized\): check --mesos_authentication_principal and --mesos_authentication_secret_file/);
  tt.equal(f.driver.state, 'stopped');
  // FAST backs off 20–80 ms: a retry loop would have tried many times by now.
  await new Promise((resolve) => setTimeout(resolve, 600));
  tt.equal(master.unauthorized, 1, 'exactly one attempt');
  tt.equal(f.fatal.length, 1);
  tt.same(f.inputsOf('subscribed'), []);
  tt.notMatch(f.logs.join('\n') + f.fatal[0].message, /wrong-secret/, 'the secret is not in the logs or the error');
});

t.test('credentials the master stops taking mid-subscription: the 401 of a call leads to the SUBSCRIBE that stops pacer, once', async (tt) => {
  const master = await authMaster();
  const f = await makeDriver(tt, { master, options: { credentials: CREDENTIALS } });
  await f.waitInput('subscribed');
  // The operator rotated the master's credentials: pacer's no longer work.
  master.credentials = { principal: 'pacer', secret: 'rotated' };
  f.driver.kill('t-1', 'a-1', 1000);
  await waitUntil(() => f.fatal[0], 5000, 'onFatal');
  tt.match(f.fatal[0].message, /refused the credentials of principal 'pacer' \(401 Unauthorized\)/);
  tt.equal(f.driver.state, 'stopped');
  await new Promise((resolve) => setTimeout(resolve, 600));
  tt.equal(f.fatal.length, 1, 'stopped once, no loop of refused calls');
  tt.equal(master.unauthorized, 2, 'the KILL, then the SUBSCRIBE');
});

t.test('no credentials against a master that requires them: says which flags to set', async (tt) => {
  const master = await authMaster();
  const f = await makeDriver(tt, { master });
  await waitUntil(() => f.fatal[0], 5000, 'onFatal');
  tt.match(f.fatal[0].message, /requires framework authentication \(401 Unauthorized\): set --mesos_authentication_principal and --mesos_authentication_secret_file/);
  tt.equal(master.unauthorized, 1);
});

t.test('a principal without a secret goes into FrameworkInfo only (Marathon sets it whenever given)', async (tt) => {
  const f = await makeDriver(tt, { options: { principal: 'pacer' } });
  await f.waitInput('subscribed');
  const subscribe = f.master.callsOf('SUBSCRIBE')[0];
  tt.equal(subscribe.call.subscribe?.frameworkInfo.principal, 'pacer');
  tt.equal(subscribe.authorization, undefined);
});

t.test('the fake master refuses an authenticated SUBSCRIBE whose FrameworkInfo names another principal', async (tt) => {
  const master = await authMaster();
  const f = await makeDriver(tt, { master, options: { credentials: CREDENTIALS, principal: 'someone-else' } });
  await waitUntil(() => f.logs.find((l) => /answered 400: Authenticated principal 'pacer' does not match principal 'someone-else'/.test(l)), 5000, 'the 400');
  tt.equal(master.unauthorized, 0, 'authenticated, then refused for the mismatch');
});

t.test('startMesos reads --mesos_authentication_secret_file (one trailing newline dropped) and subscribes with it', async (tt) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-mesos-auth-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const secretFile = join(dir, 'secret');
  writeFileSync(secretFile, `${CREDENTIALS.secret}\n`);
  const master = await authMaster();
  tt.teardown(() => master.close());
  const config = {
    ...defaultConfig(dir), cluster: 'mesos' as const, port: 0, master: master.url,
    mesosAuthenticationPrincipal: 'pacer', mesosAuthenticationSecretFile: secretFile,
  };
  const pacer = await startMesos(config, { driver: { ...FAST, logger: { info: () => undefined, warn: () => undefined } } });
  tt.teardown(() => pacer.close());
  await waitUntil(() => pacer.cluster.frameworkId, 5000, 'the subscription');
  tt.equal(master.callsOf('SUBSCRIBE')[0].authorization, EXPECTED_HEADER);
  await tt.rejects(startMesos({ ...config, mesosAuthenticationSecretFile: join(dir, 'none') }), /--mesos_authentication_secret_file .*none cannot be read \(ENOENT\)/);
  writeFileSync(join(dir, 'empty'), '\n');
  await tt.rejects(startMesos({ ...config, mesosAuthenticationSecretFile: join(dir, 'empty') }), /--mesos_authentication_secret_file .*empty is empty/);
});
