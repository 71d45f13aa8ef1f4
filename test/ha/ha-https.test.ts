import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openStream } from '../api/auth/tls-client';
import { selfSignedCertificate } from '../api/auth/auth-kit';
import { waitFor } from '../harness/wait';
import { KILLED_UNCOVERED } from '../e2e/main-kit';
import { agreedLeader, ask, leaderNamedBy, spawnPacer } from './ha-process-kit';
import { adminSession, scratchPath, SESSION, SKIP_WITHOUT_ZK, ZK } from './zk-scratch';

/**
 * `--disable_http` with `--zk`: pacer processes serving HTTPS only (a certificate made for the test
 * by openssl) advertise their HTTPS port, and a standby forwards to the leader over HTTPS — requests
 * with their bodies, answers, `/v2/events` streamed — when its Node trusts the leader's
 * certificate (`NODE_EXTRA_CA_CERTS`, read at process start). A standby that does not trust it
 * answers 502 naming the certificate problem, and forwards nothing.
 */

const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-https-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const made = selfSignedCertificate(dir);
const skip = SKIP_WITHOUT_ZK !== false ? SKIP_WITHOUT_ZK : made === undefined ? 'openssl is not available to make a test certificate' : false;

t.test('HTTPS only: a standby forwards to the leader over HTTPS when it trusts the leader\'s certificate', { skip }, async (t) => {
  if (made === undefined) throw new Error('no certificate');
  const ca = made.pem;
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const args = [
    '--zk', `zk://${ZK}${root}`, '--zk_session_timeout', String(SESSION.sessionTimeoutMs),
    '--ssl_cert', made.cert, '--ssl_key', made.key, '--disable_http', '--https_port', '0',
  ];
  // The three end with the teardown's SIGKILL: they write no coverage, so they collect none.
  const trusting = { NODE_EXTRA_CA_CERTS: made.cert, ...KILLED_UNCOVERED };
  const leader = await spawnPacer(t, args, trusting);
  t.match(leader.url, /^https:\/\//, 'HTTPS only');
  await waitFor(async () => (await leaderNamedBy(leader, ca)) === leader.address, 'the first pacer to lead');
  const standby = await spawnPacer(t, args, trusting);
  const distrustful = await spawnPacer(t, args, KILLED_UNCOVERED);
  t.equal((await agreedLeader([leader, standby], 'the trusting standby to name the first', ca)).address, leader.address);

  const listed = await ask(standby, '/v2/apps', { ca });
  t.equal(listed.status, 200, 'a GET through the standby');
  t.equal(listed.headers['x-marathon-via'], `1.1 ${standby.address}`, 'forwarded by the standby');
  t.equal(listed.headers['x-marathon-leader'], `https://${leader.address}`, 'the leader named with its HTTPS scheme');

  const stream = await openStream(standby.url, { ca });
  t.teardown(() => stream.close());
  t.equal(stream.status, 200, '/v2/events through the standby');
  const created = await ask(standby, '/v2/apps', { ca, method: 'POST', body: { id: '/https/app', cmd: 'sleep 10', cpus: 0.01, mem: 8, instances: 0 } });
  t.equal(created.status, 201, 'a POST with its body through the standby');
  await waitFor(() => stream.text().includes('api_post_event') && stream.text().includes('/https/app'), 'the event of the POST on the stream through the standby');
  const app = await ask(leader, '/v2/apps/https/app', { ca });
  t.equal(app.status, 200, 'the leader has the app');

  const info = JSON.parse((await ask(standby, '/v2/info', { ca })).body) as { elected: boolean; leader: string; http_config: { http_port: number; https_port: number } };
  t.match(info, { elected: true, leader: leader.address }, '/v2/info through the standby is the leader\'s');
  t.equal(info.http_config.https_port, Number(leader.address.split(':')[1]), 'its HTTPS port');

  // It cannot even say who leads (GET /v2/leader is forwarded too): it answers 503 until it knows the leader, then 502.
  const refused = await waitFor(async () => {
    const answer = await ask(distrustful, '/v2/apps', { ca, method: 'POST', body: { id: '/https/never', cmd: 'sleep 10', cpus: 0.01, mem: 8, instances: 0 } });
    return answer.status !== 503 && answer;
  }, 'the distrustful standby to know the leader');
  t.equal(refused.status, 502, 'a standby that does not trust the leader\'s certificate answers 502');
  t.match(JSON.parse(refused.body), { message: /certificate/ }, 'naming the certificate problem');
  t.equal((await ask(leader, '/v2/apps/https/never', { ca })).status, 404, 'and forwards nothing');
});
