import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { postCall } from '../../../../src/cluster/mesos/transport/post-call';
import { openSubscription } from '../../../../src/cluster/mesos/transport/subscription-stream';
import { within } from '../../../harness/wait';

/**
 * A connection that fails is reported in one line, whatever the error's text: `--master
 * https://…` naming a master that speaks plain HTTP fails with OpenSSL's message, which ends in a
 * newline and split the driver's text log record ("…ssl3_record.c:350:" then "; resubscribing").
 */

/** A plain-HTTP server on 127.0.0.1, and the `https://` URL that reaches it (a TLS client talking to it fails). */
async function plainServerAsHttps(t: Test): Promise<string> {
  const server = http.createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const WAYS: readonly { readonly name: string; readonly reason: (baseUrl: string, t: Test) => Promise<string> }[] = [
  {
    name: 'a call (post-call.ts)',
    reason: async (baseUrl, t) => {
      const agents = { http: new http.Agent(), https: new https.Agent() };
      t.teardown(() => { agents.http.destroy(); agents.https.destroy(); });
      const answer = await postCall({ baseUrl, body: new Uint8Array([1]), contentType: 'application/x-protobuf', streamId: 's', timeoutMs: 60_000, agents });
      return answer.kind === 'failed' ? answer.reason : `answered ${answer.status}`;
    },
  },
  {
    name: 'SUBSCRIBE (subscription-stream.ts)',
    reason: (baseUrl) => new Promise<string>((resolve) => {
      openSubscription({ baseUrl, body: new Uint8Array([1]), format: 'protobuf' }, {
        opened: () => undefined, event: () => undefined,
        redirected: () => resolve('redirected'), refused: (status) => resolve(`refused ${status}`),
        foreign: (status) => resolve(`foreign ${status}`), closed: resolve,
      });
    }),
  },
];

t.test('a TLS failure is reported on one line, for a call and for SUBSCRIBE', async (t) => {
  for (const way of WAYS) {
    const baseUrl = await plainServerAsHttps(t);
    const reason = await within(way.reason(baseUrl, t), `the failure of ${way.name}`);
    t.match(reason, /SSL|EPROTO/, `${way.name}: the reason is the TLS failure (${reason})`);
    t.notMatch(reason, /[\r\n]/, `${way.name}: on one line`);
    t.equal(reason, reason.trim(), `${way.name}: no trailing blank`);
  }
});
