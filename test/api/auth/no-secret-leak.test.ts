import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, type PacerConfig } from '../../../src/runtime/config';
import { startMesos } from '../../../src/runtime/start-mesos';
import { FakeMaster } from '../../cluster/mesos/fake-master/fake-master';
import { sampleOffer } from '../../cluster/mesos/fake-master/sample-events';
import { FAST } from '../../cluster/mesos/driver/driver-fixture';
import { waitUntil } from '../events/wait-until';
import { basic, bearer, pollUntil, tempDir, writeTokens } from './auth-kit';
import { captureLog } from '../../harness/log-capture';
import { openStream, request } from './tls-client';

/**
 * Configured secrets never leave pacer: the API password, the bearer token and the Mesos
 * framework secret are in no response, no event and no log line, through a whole session (start,
 * subscribe, create an app whose variable is a secret reference, launch it on the master, scale,
 * delete, failed logins, a reload).
 */

const HTTP_PASSWORD = 'http-pa55-never-shown';
const TOKEN = 'token-never-shown-0123456789';
const MESOS_SECRET = 'mesos-secret-never-shown';
const SECRETS = [HTTP_PASSWORD, TOKEN, MESOS_SECRET, Buffer.from(`admin:${HTTP_PASSWORD}`).toString('base64'), Buffer.from(`pacer:${MESOS_SECRET}`).toString('base64')];

t.test('no response, event or log line contains a configured secret', async (tt) => {
  const dir = tempDir(tt);
  const logged: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logged.push(String(chunk));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  tt.teardown(() => { process.stderr.write = write; });

  const master = await FakeMaster.start();
  master.credentials = { principal: 'pacer', secret: MESOS_SECRET };
  tt.teardown(() => master.close());
  const secretFile = join(dir, 'mesos-secret');
  writeFileSync(secretFile, `${MESOS_SECRET}\n`);
  const config: PacerConfig = {
    ...defaultConfig(dir), cluster: 'mesos', port: 0, master: master.url,
    httpCredentials: `admin:${HTTP_PASSWORD}`, httpTokensFile: writeTokens(join(dir, 'tokens'), { ci: TOKEN }),
    mesosAuthenticationPrincipal: 'pacer', mesosAuthenticationSecretFile: secretFile,
    // The app below has a secret reference, which needs the feature (as in Marathon).
    features: ['secrets'],
  };
  // pacer's log at its most verbose, the Mesos driver's lines in it (component mesos).
  const captured = captureLog('json', 'all');
  const pacer = await startMesos(config, { log: captured.log, driver: FAST });
  tt.teardown(() => pacer.close());
  await waitUntil(() => pacer.cluster.frameworkId !== undefined, 'the subscription', 60_000);
  const base = `http://${pacer.address}`;
  const answers: string[] = [];
  const call = async (method: string, path: string, authorization?: string, body?: unknown) => {
    const res = await request(`${base}${path}`, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(authorization === undefined ? {} : { authorization }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    });
    answers.push(`${res.status} ${JSON.stringify(res.headers)} ${res.body}`);
    return res;
  };
  const admin = basic('admin', HTTP_PASSWORD);
  const stream = await openStream(base, { headers: { authorization: bearer(TOKEN) } });
  tt.teardown(() => stream.close());
  tt.equal(stream.status, 200);

  const app = {
    id: '/db/client', cmd: 'sleep 100', cpus: 0.1, mem: 32,
    env: { PLAIN: 'visible', DB_PASSWORD: { secret: 'dbpw' } }, secrets: { dbpw: { source: '/vault/db/password' } },
  };
  tt.equal((await call('POST', '/v2/apps', admin, app)).status, 201);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(pacer.cluster.frameworkId as string, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT', 1, 60_000);
  const variable = accept.call.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.command?.environment?.variables?.find((v) => v.name === 'DB_PASSWORD');
  tt.same(variable?.secret, { type: 'REFERENCE', reference: { name: '/vault/db/password' } }, 'the master gets the reference');
  const read = await call('GET', '/v2/apps/db/client', admin);
  tt.match(JSON.parse(read.body), { app: { env: { DB_PASSWORD: { secret: 'dbpw' } }, secrets: { dbpw: { source: '/vault/db/password' } } } }, 'the API shows references');
  for (const path of ['/v2/apps?embed=apps.tasks', '/v2/groups?embed=group.apps', '/v2/tasks', '/v2/deployments', '/v2/queue', '/v2/info', '/v2/leader', '/metrics', '/metrics/prometheus', '/v2/apps/db/client/versions', '/ping']) {
    await call('GET', path, bearer(TOKEN));
  }
  await call('GET', '/v2/apps', basic('admin', `${HTTP_PASSWORD}x`));
  await call('GET', '/v2/apps', bearer(`${TOKEN}x`));
  await call('GET', '/v2/info', basic('pacer', MESOS_SECRET));
  await call('PUT', '/v2/apps/db/client?force=true', admin, { instances: 2 });
  await call('DELETE', '/v2/apps/db/client?force=true', admin);
  pacer.reloadAuth();
  // The delete waits for the master's TASK_KILLED, which this fake never sends: its step events suffice.
  await pollUntil(async () => (stream.text().match(/event: deployment_info/g) ?? []).length >= 3 && stream.text().includes('event: api_post_event'), 'the events of the session');

  logged.push(...captured.lines());
  const everything = [...answers, stream.text(), ...logged, master.calls.map((c) => JSON.stringify(c.call)).join('\n')].join('\n');
  tt.ok(answers.length >= 15 && stream.text().length > 200 && logged.some((l) => /reloaded the tokens file/.test(l)), 'there was something to look at');
  tt.ok(logged.some((l) => /"component":"mesos","subscription":"subscribed"/.test(l)) && logged.some((l) => /"method":"POST","path":"\/v2\/apps"/.test(l)), 'the log has the driver\'s and the requests\' records');
  for (const secret of SECRETS) tt.notOk(everything.includes(secret), `${secret.slice(0, 6)}… appears nowhere`);
});
