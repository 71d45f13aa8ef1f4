import t from 'tap';
import { readSample } from '../codec/sample-files';
import { makeDriver } from '../driver/driver-fixture';
import { FakeMaster } from './fake-master';

/** A raw POST to the fake master (no driver), for its own header rules. */
async function post(master: FakeMaster, body: Uint8Array, headers: Record<string, string>): Promise<Response> {
  return fetch(`${master.url}/api/v1/scheduler`, { method: 'POST', headers, body });
}

t.test('the fake master enforces the master header rules (§1.2, §1.5)', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const subscribe = readSample('pb/calls/01-SUBSCRIBE.bin');
  const teardown = readSample('pb/calls/12-TEARDOWN.bin');
  const cases: { name: string; body: Uint8Array; headers: Record<string, string>; status: number }[] = [
    { name: 'charset in Content-Type', body: teardown, headers: { 'Content-Type': 'application/json; charset=utf-8' }, status: 415 },
    { name: 'no stream id on a call', body: teardown, headers: { 'Content-Type': 'application/x-protobuf' }, status: 400 },
    { name: 'a stream id on SUBSCRIBE', body: subscribe, headers: { 'Content-Type': 'application/x-protobuf', 'Mesos-Stream-Id': 'x' }, status: 400 },
    { name: 'a call while nobody is subscribed', body: teardown, headers: { 'Content-Type': 'application/x-protobuf', 'Mesos-Stream-Id': 'x' }, status: 403 },
  ];
  for (const c of cases) {
    const res = await post(master, c.body, c.headers);
    t.equal(res.status, c.status, c.name);
    await res.text();
  }
  t.same(master.calls.map((c) => [c.call.type, c.status]), [['TEARDOWN', 400], ['SUBSCRIBE', 400], ['TEARDOWN', 403]], 'decoded calls are recorded (the 415 was not decodable)');
});

for (const format of ['pb', 'json'] as const) {
  t.test(`the recorded ${format} event stream replayed through the driver`, async (t) => {
    const f = await makeDriver(t, { noStart: true, options: { format: format === 'pb' ? 'protobuf' : 'json' } });
    f.master.behaviour.autoSubscribed = false;
    f.driver.start({ launchedInstances: 0 });
    await f.master.waitForStream();
    const stream = readSample(`${format}/event-stream.recordio`);
    for (let i = 0; i < stream.length; i += 97) f.master.sendRaw(stream.subarray(i, i + 97)); // chunks unrelated to records
    const updates = format === 'pb' ? 53 : 55;
    await f.waitInput('status', updates);
    t.equal(f.inputsOf('subscribed').length, 1);
    t.match(f.inputsOf('subscribed')[0]?.frameworkId, /-0000$/, 'the recorded framework id');
    t.equal(f.inputsOf('offers').length, 5, 'five OFFERS events');
    t.equal(f.inputsOf('status').length, updates);
    t.equal(f.inputsOf('agentLost').length, 0, 'the executor FAILURE is not an agent loss');
    const withUuid = f.inputsOf('status').filter((s) => s.status.uuid !== undefined).length;
    t.ok(withUuid >= 42, `${withUuid} updates to acknowledge (42 acknowledged in the recording)`);
    t.same(f.inputsOf('disconnected'), []);
  });
}
