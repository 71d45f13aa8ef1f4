import t from 'tap';
import { EventBus } from '../../../../src/scheduler/events/event-bus';
import { instanceChangedEvent } from '../../../../src/scheduler/events/instance-events';
import { EffectApplier } from '../../../../src/scheduler/instances/effect-applier';
import { InstanceEffects } from '../../../../src/scheduler/instances/instance-effects';
import type { MarathonEvent } from '../../../../src/scheduler/model/events';
import { Instance, type InstanceAtEvent } from '../../../../src/scheduler/model/instance';
import type { SchedulerPorts } from '../../../../src/scheduler/ports/scheduler-ports';

/*
 * The instances scheduleNewInstances creates are announced by one `newInstances` effect for the
 * batch, whose events are built when the effect is carried out. These check that a listener
 * receives exactly what the former effect per instance delivered — `instanceChangedEvent` of the
 * instance as it was made (same fields, same order of keys), with goal Running and no kill reason
 * — in creation order, between the effects decided before and after it, even when the instances
 * changed in between (placed, retargeted) before the effects were carried out.
 */

const NOW_MS = Date.UTC(2026, 0, 1, 0, 0, 1, 234);

/** Ports that refuse to be used: announcing instances touches only the bus. */
const unused = (): never => {
  throw new Error('no port is used to announce new instances');
};
const PORTS = {
  clock: { nowMs: unused }, random: { next: unused }, timers: { schedule: unused, cancel: unused }, prober: { probe: unused },
  driver: { accept: unused, decline: unused, kill: unused, acknowledge: unused, reconcile: unused, revive: unused, suppress: unused },
  store: {},
} as unknown as SchedulerPorts;

function made(n: number, version: string): Instance {
  return Instance.from({
    instanceId: `web.instance-${n}`, runSpecId: '/web', kind: 'app', runSpecVersion: version, configVersion: version,
    incarnation: 0, goal: 'Running', condition: 'Scheduled', conditionSinceMs: NOW_MS, role: '*', agent: undefined,
    allocation: undefined, tasks: [], healthy: undefined, ready: undefined, startedAtMs: undefined,
    unreachableSinceMs: undefined, killReason: undefined, killRequestedAtMs: undefined,
  });
}

/** Changes to an instance after its creation was decided and before the effects are carried out. */
const changes: Record<string, (inst: Instance) => void> = {
  none: () => undefined,
  placed: (inst) => Object.assign(inst, { condition: 'Provisioned', agent: { agentId: 'a1', hostname: 'h1', attributes: [] }, incarnation: 1 }),
  retargeted: (inst) => Object.assign(inst, { runSpecVersion: '2026-02-02T00:00:00.000Z' }),
  killed: (inst) => Object.assign(inst, { goal: 'Decommissioned', killReason: 'scale-down' }),
};

function received(apply: (effects: InstanceEffects) => void): { json: string[]; at: (InstanceAtEvent | undefined)[] } {
  const bus = new EventBus();
  const effects = new InstanceEffects();
  const applier = new EffectApplier(PORTS, bus, effects);
  const json: string[] = [];
  const at: (InstanceAtEvent | undefined)[] = [];
  bus.subscribe((event: MarathonEvent, instance?: InstanceAtEvent) => {
    json.push(JSON.stringify(event));
    at.push(instance);
  });
  apply(effects);
  applier.drain();
  return { json, at };
}

t.test('a batch announces each new instance as its own effect did, whatever changed before the effects were carried out', async (t) => {
  const version = '2026-01-01T00:00:00.000Z';
  const before: MarathonEvent = { eventType: 'group_change_success', timestamp: '2026-01-01T00:00:01.234Z', groupId: '/', version };
  const cases: { name: string; count: number; change: keyof typeof changes }[] = [
    { name: 'none created', count: 0, change: 'none' },
    { name: 'one', count: 1, change: 'none' },
    { name: 'several', count: 5, change: 'none' },
    { name: 'placed before the effects were carried out', count: 3, change: 'placed' },
    { name: 'retargeted before the effects were carried out', count: 3, change: 'retargeted' },
    { name: 'killed before the effects were carried out', count: 2, change: 'killed' },
  ];
  for (const c of cases) {
    const batch = Array.from({ length: c.count }, (_, n) => made(n, version));
    // The former way: one event effect per instance, built from the instance as it was made.
    const one = received((effects) => {
      effects.event(before);
      for (const inst of batch) effects.event(instanceChangedEvent(inst, NOW_MS), { goal: 'Running', killReason: undefined });
      effects.event(before);
    });
    const batched = received((effects) => {
      effects.event(before);
      effects.newInstances(batch, version, NOW_MS);
      effects.event(before);
      for (const inst of batch) changes[c.change](inst);
    });
    t.strictSame(batched.json, one.json, `${c.name}: the same events, key for key, in order`);
    t.strictSame(batched.at, one.at, `${c.name}: the same goal and kill reason`);
    t.equal(batched.json.length, c.count + 2, `${c.name}: one event per instance`);
  }
});

t.test('with no listener the batch costs no event', async (t) => {
  const bus = new EventBus();
  const effects = new InstanceEffects(() => bus.hasListeners);
  const applier = new EffectApplier(PORTS, bus, effects);
  t.equal(effects.eventsWanted, false);
  effects.newInstances([made(1, 'v')], 'v', NOW_MS);
  applier.drain();
  t.equal(effects.size, 0, 'carried out (nothing to deliver)');
});
