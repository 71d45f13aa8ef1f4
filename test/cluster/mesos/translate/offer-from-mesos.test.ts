import t from 'tap';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { decodeEvent, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Attribute, Offer as MesosOffer, Resource } from '../../../../src/cluster/mesos/codec/mesos-model';
import { formatAttributeValue } from '../../../../src/scheduler/constraints/format-attribute';
import { makeMesosOffer, portsResource, recordedEvent, resourceSet, scalarResource } from './mesos-builders';

t.test('unreserved resources in the pre-refinement format: one pool in milli-units', async (t) => {
  const offer = offerFromMesos(makeMesosOffer({
    resources: [
      scalarResource('cpus', 1.5, { role: '*', allocationRole: 'web' }),
      scalarResource('mem', 1024.25, { role: '*', allocationRole: 'web' }),
      scalarResource('disk', 2000, { role: '*', allocationRole: 'web' }),
      scalarResource('gpus', 2, { role: '*', allocationRole: 'web' }),
      portsResource([[32000, 32010], [31000, 31005]], { role: '*', allocationRole: 'web' }),
    ],
    allocationRole: 'web',
  }));
  t.same(offer, {
    offerId: 'O1',
    agent: { agentId: 'S1', hostname: 'agent-1.example', attributes: [] },
    pools: [{ cpusMilli: 1500, memMilli: 1_024_250, diskMilli: 2_000_000, gpus: 2, ports: [[31000, 31005], [32000, 32010]] }],
    allocationRole: 'web',
  });
  t.notOk('reservedFor' in offer.pools[0], 'the unreserved pool has no reservedFor');
});

t.test('pools by reservation role, in both reservation formats', async (t) => {
  const cases: { name: string; resources: MesosOffer['resources']; want: unknown[] }[] = [
    {
      name: 'pre-refinement: a role\'s static reservations form its pool (an unlabelled dynamic one is left out)',
      resources: [
        ...resourceSet({ cpus: 2, mem: 512 }, { role: '*' }),
        ...resourceSet({ cpus: 1, mem: 256, ports: [[31000, 31000]] }, { role: 'web' }),
        scalarResource('cpus', 0.5, { role: 'web', reservation: { principal: 'ops' } }),
      ],
      want: [
        { cpusMilli: 2000, memMilli: 512_000, diskMilli: 0, gpus: 0, ports: [] },
        { reservedFor: 'web', cpusMilli: 1000, memMilli: 256_000, diskMilli: 0, gpus: 0, ports: [[31000, 31000]] },
      ],
    },
    {
      name: 'post-refinement: empty stack = unreserved, a STATIC entry = its role (a refined dynamic one of no known framework is left out)',
      resources: [
        ...resourceSet({ cpus: 2, mem: 512 }, { reservations: [] }),
        scalarResource('cpus', 1, { reservations: [{ type: 'STATIC', role: 'eng' }] }),
        scalarResource('cpus', 3, { reservations: [{ type: 'STATIC', role: 'eng' }, { type: 'DYNAMIC', role: 'eng/web', principal: 'p' }] }),
      ],
      want: [
        { cpusMilli: 2000, memMilli: 512_000, diskMilli: 0, gpus: 0, ports: [] },
        { reservedFor: 'eng', cpusMilli: 1000, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] },
      ],
    },
    {
      name: 'a protobuf default role "*" next to a stack does not hide the reservation',
      resources: [scalarResource('cpus', 1, { role: '*', reservations: [{ type: 'STATIC', role: 'db' }] })],
      want: [{ reservedFor: 'db', cpusMilli: 1000, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'reserved resources only: no unreserved pool',
      resources: resourceSet({ cpus: 1, mem: 64 }, { role: 'db' }),
      want: [{ reservedFor: 'db', cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'no role at all reads as unreserved',
      resources: resourceSet({ cpus: 1, mem: 64 }),
      want: [{ cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
  ];
  for (const c of cases) t.same(offerFromMesos(makeMesosOffer({ resources: c.resources })).pools, c.want, c.name);
});

t.test('resources the core cannot use are left out of the pools', async (t) => {
  const usable = resourceSet({ cpus: 1, mem: 128, disk: 100 }, { role: '*' });
  const unusable: Resource[] = [
    scalarResource('cpus', 8, { role: '*', extra: { revocable: {} } }),
    scalarResource('disk', 500, { role: 'db', extra: { disk: { persistence: { id: 'vol-1' }, volume: { containerPath: 'data', mode: 'RW' } } } }),
    scalarResource('disk', 700, { role: '*', extra: { disk: { source: { type: 'MOUNT', mount: { root: '/mnt/d1' } } } } }),
    scalarResource('disk', 300, { role: 'db', extra: { shared: {}, disk: { persistence: { id: 'vol-2' } } } }),
    scalarResource('cpus', 2, { role: '*', extra: { providerId: { value: 'rp-1' } } }),
    scalarResource('network_bandwidth', 1000, { role: '*' }),
    { name: 'zones', type: 'SET', set: { item: ['a'] }, role: '*' },
  ];
  const offer = offerFromMesos(makeMesosOffer({ resources: [...usable, ...unusable] }));
  t.same(offer.pools, [{ cpusMilli: 1000, memMilli: 128_000, diskMilli: 100_000, gpus: 0, ports: [] }]);
});

t.test('allocation role: the offer\'s, else its resources\', else none', async (t) => {
  const fromOffer = makeMesosOffer({ allocationRole: 'apps' });
  t.equal(offerFromMesos(fromOffer).allocationRole, 'apps');
  const fromResources: MesosOffer = { ...fromOffer, allocationInfo: undefined, resources: resourceSet({ cpus: 1, mem: 1 }, { allocationRole: 'db' }) };
  t.equal(offerFromMesos(fromResources).allocationRole, 'db');
  const none: MesosOffer = { ...fromOffer, allocationInfo: undefined, resources: resourceSet({ cpus: 1, mem: 1 }) };
  t.notOk('allocationRole' in offerFromMesos(none), 'non-MULTI_ROLE offers carry no allocation role');
});

t.test('agent attributes: typed, formatted as Marathon does for constraints', async (t) => {
  const cases: { attr: Attribute; formatted?: string }[] = [
    { attr: { name: 'rack', type: 'TEXT', text: { value: 'r1' } }, formatted: 'r1' },
    { attr: { name: 'level', type: 'SCALAR', scalar: { value: 10 } }, formatted: '10' },
    { attr: { name: 'weight', type: 'SCALAR', scalar: { value: 1.0005 } }, formatted: '1' },
    { attr: { name: 'ratio', type: 'SCALAR', scalar: { value: 1.5 } }, formatted: '1.5' },
    { attr: { name: 'keys', type: 'RANGES', ranges: { range: [{ begin: 2000, end: 3000 }, { begin: 1000, end: 1500 }] } }, formatted: '[1000-1500,2000-3000]' },
    { attr: { name: 'tags', type: 'SET', set: { item: ['b', 'a'] } }, formatted: '{a,b}' },
    { attr: { name: 'broken', type: 'TEXT' } },
    { attr: { name: 'broken', type: 'SCALAR' } },
    { attr: { name: 'broken', type: 'RANGES' } },
    { attr: { name: 'broken', type: 'SET' } },
  ];
  const offer = offerFromMesos(makeMesosOffer({ attributes: cases.map((c) => c.attr) }));
  const kept = cases.filter((c) => c.formatted !== undefined);
  t.equal(offer.agent.attributes.length, kept.length, 'attributes without a value are dropped');
  offer.agent.attributes.forEach((a, i) => {
    t.equal(a.name, kept[i].attr.name);
    t.equal(formatAttributeValue(a), kept[i].formatted, `${a.name} formats as ${kept[i].formatted}`);
  });
  t.same(offer.agent.attributes[0], { name: 'rack', type: 'text', text: 'r1' });
  t.same(offer.agent.attributes[4], { name: 'keys', type: 'ranges', ranges: [[2000, 3000], [1000, 1500]] });
});

t.test('fault domain: region and zone, absent without a domain', async (t) => {
  const withDomain = offerFromMesos(makeMesosOffer({ region: 'eu-west', zone: 'eu-west-1a' }));
  t.equal(withDomain.agent.region, 'eu-west');
  t.equal(withDomain.agent.zone, 'eu-west-1a');
  const without = offerFromMesos(makeMesosOffer());
  t.notOk('region' in without.agent || 'zone' in without.agent);
});

t.test('the offer recorded from a real master', async (t) => {
  const event = recordedEvent('003-OFFERS.json');
  const recorded = (event.offers as { offers: MesosOffer[] }).offers[0];
  const offer = offerFromMesos(recorded);
  t.same(offer, {
    offerId: recorded.id.value,
    agent: {
      agentId: recorded.agentId.value,
      hostname: '127.0.0.1',
      attributes: [{ name: 'rack', type: 'text', text: 'r1' }, { name: 'zone', type: 'text', text: 'z1' }],
    },
    pools: [{ cpusMilli: 2000, memMilli: 4_096_000, diskMilli: 10_000_000, gpus: 0, ports: [[31000, 32000]] }],
    allocationRole: '*',
  });
});

t.test('dynamic reservations that are not this framework\'s are left out of the pools (Marathon launches only on reservations it made)', async (t) => {
  const own = { labels: [{ key: 'marathon_framework_id', value: 'F1' }, { key: 'marathon_task_id', value: 'db.instance-1' }] };
  const foreign = { labels: [{ key: 'marathon_framework_id', value: 'F2' }, { key: 'marathon_task_id', value: 'db.instance-9' }] };
  const unreserved = resourceSet({ cpus: 1, mem: 64 }, { role: '*' });
  const cases: { name: string; resources: Resource[]; want: unknown[] }[] = [
    {
      name: 'pre-refinement: another framework\'s labelled reservation',
      resources: [...unreserved, ...resourceSet({ cpus: 2, mem: 512, ports: [[32000, 32010]] }, { role: 'web', reservation: { principal: 'other', labels: foreign } })],
      want: [{ cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'pre-refinement: an operator\'s reservation without labels',
      resources: [...unreserved, ...resourceSet({ cpus: 2, mem: 512 }, { role: 'web', reservation: { principal: 'ops' } })],
      want: [{ cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'post-refinement: another framework\'s DYNAMIC reservation',
      resources: [...resourceSet({ cpus: 1, mem: 64 }, { reservations: [] }), ...resourceSet({ cpus: 2, mem: 512 }, { reservations: [{ type: 'DYNAMIC', role: 'web', principal: 'other', labels: foreign }] })],
      want: [{ cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'a static reservation of the same role is still its role\'s pool',
      resources: [
        ...resourceSet({ cpus: 0.5, mem: 128 }, { role: 'web' }),
        ...resourceSet({ cpus: 2, mem: 512 }, { role: 'web', reservation: { principal: 'other', labels: foreign } }),
        scalarResource('cpus', 0.25, { reservations: [{ type: 'STATIC', role: 'web' }] }),
      ],
      want: [{ reservedFor: 'web', cpusMilli: 750, memMilli: 128_000, diskMilli: 0, gpus: 0, ports: [] }],
    },
    {
      name: 'this framework\'s own labelled reservation is the pool of its instance',
      resources: [...unreserved, ...resourceSet({ cpus: 2, mem: 512 }, { role: 'web', reservation: { principal: 'pacer', labels: own } })],
      want: [
        { cpusMilli: 1000, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] },
        { reservedFor: 'web', reservationId: 'db.instance-1', volumes: [], cpusMilli: 2000, memMilli: 512_000, diskMilli: 0, gpus: 0, ports: [] },
      ],
    },
  ];
  for (const c of cases) t.same(offerFromMesos(makeMesosOffer({ resources: c.resources }), 'F1').pools, c.want, c.name);
});

t.test('unavailability: the agent\'s maintenance window in ms, from protobuf and JSON (int64 as numbers or strings)', async (t) => {
  // 2026-01-01T00:00:00.123456789Z: nanoseconds to whole ms, rounded down.
  const startNs = 1_767_225_600_123_456_789n;
  const cases: { name: string; unavailability?: MesosOffer['unavailability']; json?: string; want: unknown }[] = [
    { name: 'start and duration', unavailability: { start: { nanoseconds: startNs }, duration: { nanoseconds: 3_600_000_999_999 } }, want: { startMs: 1_767_225_600_123, durationMs: 3_600_000 } },
    { name: 'no duration: forever', unavailability: { start: { nanoseconds: startNs } }, want: { startMs: 1_767_225_600_123 } },
    { name: 'a zero duration is a duration', unavailability: { start: { nanoseconds: 0 }, duration: { nanoseconds: 0 } }, want: { startMs: 0, durationMs: 0 } },
    { name: 'no window', want: undefined },
    // Mesos writes int64 as JSON numbers and reads numeric strings too (spec §1.2).
    { name: 'JSON text, int64 as strings', json: '{"start":{"nanoseconds":"1767225600000000000"},"duration":{"nanoseconds":"60000000000"}}', want: { startMs: 1_767_225_600_000, durationMs: 60_000 } },
    { name: 'JSON text, int64 as numbers, no duration', json: '{"start":{"nanoseconds":1767225600000000000}}', want: { startMs: 1_767_225_600_000 } },
  ];
  for (const c of cases) {
    const mesosOffer = makeMesosOffer();
    if (c.unavailability !== undefined) mesosOffer.unavailability = c.unavailability;
    const event = { type: 'OFFERS' as const, offers: { offers: [mesosOffer] } };
    const bodies: [string, Uint8Array, 'protobuf' | 'json'][] = c.json === undefined
      ? [['protobuf', encodeEvent(event, 'protobuf'), 'protobuf'], ['json', encodeEvent(event, 'json'), 'json']]
      : [['json text', jsonOffersEvent(mesosOffer, c.json), 'json']];
    for (const [form, body, format] of bodies) {
      const decoded = decodeEvent(body, format).offers?.offers?.[0];
      if (decoded === undefined) throw new Error('no offer decoded');
      const offer = offerFromMesos(decoded);
      t.same(offer.unavailability, c.want, `${c.name} (${form})`);
      if (c.want === undefined) t.notOk('unavailability' in offer, `${c.name} (${form}): no key`);
    }
  }
});

/** An OFFERS event as Mesos's JSON, the offer's `unavailability` given as JSON text. */
function jsonOffersEvent(offer: MesosOffer, unavailabilityJson: string): Uint8Array {
  const base = new TextDecoder().decode(encodeEvent({ type: 'OFFERS', offers: { offers: [offer] } }, 'json'));
  const text = base.replace('"hostname":', `"unavailability":${unavailabilityJson},"hostname":`);
  if (text === base) throw new Error('the offer JSON has no hostname to insert before');
  return new TextEncoder().encode(text);
}
