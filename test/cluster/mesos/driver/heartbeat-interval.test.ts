import t from 'tap';
import { encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import {
  heartbeatInterval, MAX_HEARTBEAT_INTERVAL_SECONDS, MIN_HEARTBEAT_INTERVAL_SECONDS,
} from '../../../../src/cluster/mesos/heartbeat-interval';
import { encodeRecord } from '../../../../src/cluster/mesos/recordio/encode-record';
import { makeDriver } from './driver-fixture';

t.test('the heartbeat interval of SUBSCRIBED is taken within bounds', async (t) => {
  const cases: { given: number | undefined; seconds: number; refused: boolean }[] = [
    { given: undefined, seconds: 15, refused: false },
    { given: 15, seconds: 15, refused: false },
    { given: 0.02, seconds: 0.02, refused: false },
    { given: MAX_HEARTBEAT_INTERVAL_SECONDS, seconds: MAX_HEARTBEAT_INTERVAL_SECONDS, refused: false },
    { given: 0, seconds: 15, refused: true },
    { given: -1, seconds: 15, refused: true },
    { given: Number.NaN, seconds: 15, refused: true },
    { given: 1e-9, seconds: MIN_HEARTBEAT_INTERVAL_SECONDS, refused: true },
    { given: 1e10, seconds: MAX_HEARTBEAT_INTERVAL_SECONDS, refused: true },
    { given: Number.POSITIVE_INFINITY, seconds: MAX_HEARTBEAT_INTERVAL_SECONDS, refused: true },
  ];
  for (const c of cases) {
    const got = heartbeatInterval(c.given, 15);
    t.equal(got.seconds, c.seconds, `${String(c.given)} → ${c.seconds} s`);
    t.equal(got.refused !== undefined, c.refused, `${String(c.given)} ${c.refused ? 'is' : 'is not'} reported`);
  }
});

/** A protobuf SUBSCRIBED whose heartbeat_interval_seconds is NaN (the codec refuses to encode one). */
function subscribedWithNaN(frameworkId: string): Uint8Array {
  const bytes = encodeEvent({ type: 'SUBSCRIBED', subscribed: { frameworkId: { value: frameworkId }, heartbeatIntervalSeconds: 15 } }, 'protobuf');
  const fifteen = Buffer.alloc(8);
  fifteen.writeDoubleLE(15);
  const at = Buffer.from(bytes).indexOf(fifteen);
  const patched = Buffer.from(bytes);
  patched.writeDoubleLE(Number.NaN, at);
  return new Uint8Array(patched);
}

// Each of these armed the heartbeat watchdog with 0 ms, a negative time, NaN or beyond Node's
// 2^31 − 1 ms (all fire at once): the driver resubscribed right after every SUBSCRIBED, for ever.
const ODD_INTERVALS: readonly { name: string; seconds?: number }[] = [
  { name: '0', seconds: 0 },
  { name: '-1', seconds: -1 },
  { name: 'NaN' },
  { name: '1e10', seconds: 1e10 },
  { name: 'Infinity', seconds: Number.POSITIVE_INFINITY },
];

for (const odd of ODD_INTERVALS) {
  t.test(`SUBSCRIBED with heartbeat_interval_seconds ${odd.name}: warned once, the subscription stays`, async (t) => {
    const f = await makeDriver(t, { noStart: true });
    f.master.behaviour.autoSubscribed = false;
    f.driver.start({ launchedInstances: 0 });
    await f.master.waitForStream();
    if (odd.seconds === undefined) f.master.sendRaw(encodeRecord(subscribedWithNaN('fw-1')));
    else f.master.send({ type: 'SUBSCRIBED', subscribed: { frameworkId: { value: 'fw-1' }, heartbeatIntervalSeconds: odd.seconds } });
    f.master.send({ type: 'HEARTBEAT' });
    await f.waitInput('subscribed');
    // Any watchdog armed from the odd value fires within a few ms; the sane one not for 75 s or more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.same(f.inputsOf('disconnected'), [], 'not taken for dead');
    t.equal(f.master.callsOf('SUBSCRIBE').length, 1, 'subscribed once');
    t.equal(f.driver.state, 'subscribed');
    const warnings = f.logs.filter((l) => /heartbeat_interval_seconds/.test(l));
    t.equal(warnings.length, 1, 'one warning');
    t.match(warnings[0], /^WARN the master's SUBSCRIBED gives heartbeat_interval_seconds \S+, outside 0\.01 to 3600 s: the heartbeat watchdog takes (15|3600) s instead$/);
  });
}
