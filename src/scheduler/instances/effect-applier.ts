import type { EventBus, EventSink } from '../events/event-bus';
import { scheduledInstanceEvent } from '../events/instance-events';
import type { ClusterDriver } from '../ports/cluster-driver';
import type { Prober } from '../ports/prober';
import type { SchedulerPorts } from '../ports/scheduler-ports';
import type { Store } from '../ports/store';
import type { Timers } from '../ports/timers';
import type { CorePorts } from './instance-context';
import { NEW_INSTANCE_AT_EVENT } from './instance-tracker';
import type { InstanceEffect, InstanceEffects } from './instance-effects';

/**
 * The one place where the instance tracker's effects meet the world (issue 12: operations in,
 * effects out). The tracker's operations and the status handlers append effects to `effects`; the
 * applier carries them out in the order they were decided — `drain`, which the facade calls after
 * each status handler, at the end of every input, and (through {@link ports}) right before any
 * call the layers above the tracker make on a port themselves. So everything that leaves the core
 * (driver calls, store writes, timers, probes, events) leaves in the order the core decided it,
 * exactly as when each was a direct call.
 */
export class EffectApplier {
  /** The ports and the bus as the layers above the tracker call them: each call drains first. */
  readonly ports: CorePorts;

  constructor(private readonly world: SchedulerPorts, private readonly bus: EventBus, private readonly effects: InstanceEffects) {
    this.ports = drainingPorts(world, bus, () => this.drain());
  }

  /** Carries out every pending effect, in order. */
  drain(): void {
    this.applyAll(this.effects.take());
  }

  /** Carries out effects a tracker operation returned, in order. */
  applyAll(effects: readonly InstanceEffect[]): void {
    for (let i = 0; i < effects.length; i++) this.apply(effects[i]);
  }

  /** Carries out one effect on the real ports. */
  apply(effect: InstanceEffect): void {
    const { driver, timers, store, prober } = this.world;
    switch (effect.kind) {
      case 'event':
        this.bus.emit(effect.event, effect.instance);
        return;
      case 'newInstances': {
        const { instances, runSpecVersion, nowMs } = effect;
        for (let i = 0; i < instances.length; i++) {
          const inst = instances[i];
          this.bus.emit(scheduledInstanceEvent(inst.instanceId, inst.runSpecId, runSpecVersion, nowMs), NEW_INSTANCE_AT_EVENT);
        }
        return;
      }
      case 'kill':
        driver.kill(effect.taskId, effect.agentId, effect.gracePeriodMs);
        return;
      case 'acknowledge':
        driver.acknowledge(effect.agentId, effect.taskId, effect.uuid);
        return;
      case 'setTimer':
        effect.handle.id = timers.schedule(effect.dueMs, effect.input);
        return;
      case 'clearTimer':
        if (effect.handle.id !== undefined) timers.cancel(effect.handle.id);
        effect.handle.id = undefined;
        return;
      case 'probe':
        prober.probe(effect.request);
        return;
      case 'saveInstances':
        store.saveInstances(effect.instances);
        return;
      case 'deleteInstance':
        store.deleteInstance(effect.instanceId);
        return;
      case 'deleteRunSpec':
        store.deleteRunSpec(effect.runSpecId);
        return;
      case 'saveTaskFailure':
        store.saveTaskFailure(effect.failure);
        return;
      case 'deleteTaskFailure':
        store.deleteTaskFailure(effect.runSpecId);
        return;
    }
  }
}

/** `world`'s ports and `bus`, each call preceded by `drain` (the clock and randomness are reads). */
function drainingPorts(world: SchedulerPorts, bus: EventBus, drain: () => void): CorePorts {
  const { driver, timers, store, prober } = world;
  const drained: ClusterDriver = {
    accept: (offerId, operations, refuseMs) => { drain(); driver.accept(offerId, operations, refuseMs); },
    decline: (offerIds, refuseMs) => { drain(); driver.decline(offerIds, refuseMs); },
    kill: (taskId, agentId, gracePeriodMs) => { drain(); driver.kill(taskId, agentId, gracePeriodMs); },
    acknowledge: (agentId, taskId, uuid) => { drain(); driver.acknowledge(agentId, taskId, uuid); },
    reconcile: (tasks) => { drain(); driver.reconcile(tasks); },
    revive: (roles) => { drain(); driver.revive(roles); },
    suppress: (roles) => { drain(); driver.suppress(roles); },
    ...(driver.updateFrameworkRoles === undefined ? {} : {
      updateFrameworkRoles: (roles: readonly string[]) => { drain(); driver.updateFrameworkRoles?.(roles); },
    }),
  };
  const drainedTimers: Timers = {
    schedule: (dueMs, input) => { drain(); return timers.schedule(dueMs, input); },
    cancel: (timerId) => { drain(); timers.cancel(timerId); },
  };
  const drainedProber: Prober = { probe: (request) => { drain(); prober.probe(request); } };
  const drainedStore: Store = {
    saveRoot: (root) => { drain(); store.saveRoot(root); },
    saveRunSpec: (spec) => { drain(); store.saveRunSpec(spec); },
    deleteRunSpec: (runSpecId) => { drain(); store.deleteRunSpec(runSpecId); },
    saveRunSpecVersion: (spec) => { drain(); store.saveRunSpecVersion(spec); },
    deleteRunSpecVersion: (runSpecId, version) => { drain(); store.deleteRunSpecVersion(runSpecId, version); },
    saveRootVersion: (root) => { drain(); store.saveRootVersion(root); },
    deleteRootVersion: (version) => { drain(); store.deleteRootVersion(version); },
    saveDeployment: (deployment) => { drain(); store.saveDeployment(deployment); },
    deleteDeployment: (deploymentId) => { drain(); store.deleteDeployment(deploymentId); },
    saveInstances: (instances) => { drain(); store.saveInstances(instances); },
    deleteInstance: (instanceId) => { drain(); store.deleteInstance(instanceId); },
    saveFrameworkId: (frameworkId) => { drain(); store.saveFrameworkId(frameworkId); },
    saveTaskFailure: (failure) => { drain(); store.saveTaskFailure(failure); },
    deleteTaskFailure: (runSpecId) => { drain(); store.deleteTaskFailure(runSpecId); },
    setAside: (record) => { drain(); store.setAside(record); },
    load: () => { drain(); return store.load(); },
  };
  const drainedBus: EventSink = {
    emit: (event, instance) => { drain(); bus.emit(event, instance); },
    get hasListeners() { return bus.hasListeners; },
  };
  return { clock: world.clock, random: world.random, driver: drained, timers: drainedTimers, store: drainedStore, prober: drainedProber, bus: drainedBus };
}
