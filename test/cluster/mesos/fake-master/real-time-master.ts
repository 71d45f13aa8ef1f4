import type { SchedulerInput } from '../../../../src/scheduler/model/inputs';
import { DEFAULT_SIM_TIMINGS, type SimTimings } from '../../../../sim/cluster/sim-models';
import type { SimAgentSpec } from '../../../../sim/cluster/sim-agent-spec';
import { createWorldStreams } from '../../../../sim/world';
import { makeApp } from '../../../builders/run-spec-builders';
import { SimBackedMaster } from './sim-backed-master';

/** Quick simulated agents: offers every 100 ms, tasks start and stop within tens of ms. */
export const QUICK_TIMINGS: SimTimings = {
  ...DEFAULT_SIM_TIMINGS,
  offerIntervalMs: 100,
  stagingMs: [5, 10],
  startingMs: [5, 10],
  runningMs: [5, 10],
  shutdownMs: [5, 10],
};

/** One agent with plenty of unreserved resources. */
export function roomyAgent(agentId = 'agent-1'): SimAgentSpec {
  return { agentId, hostname: `${agentId}.example`, attributes: [], resources: { cpus: 8, mem: 8192, disk: 20_000, gpus: 0, ports: [[31000, 31999]] }, reserved: [] };
}

/** A {@link SimBackedMaster} running in real time, and how to stop it. */
export interface RealTimeMaster {
  readonly master: SimBackedMaster;
  readonly url: string;
  /**
   * While true, offers are not written to the framework (they stay outstanding until its
   * connection closes or the next subscription rescinds them). Lift it before a framework subscribes again: an offer made after
   * that subscription's rescind and dropped by the hold stays outstanding for good.
   */
  holdOffers: boolean;
  close(): Promise<void>;
}

/**
 * A {@link SimBackedMaster} in wall-clock time for end-to-end tests of a whole pacer (which may be
 * stopped and started again against it): the simulated cluster's events run on timers, its
 * messages for the framework are written as events when due, on the subscription that was open
 * when the master model said them (dropped when there was none, or when it has closed or been
 * replaced since, as a real master's offers and updates die with the subscription; outstanding
 * offers are rescinded when a framework subscribes again), and the calls received are applied
 * every few milliseconds. The master model (src/master) decides everything a master decides:
 * offers, ACCEPT checks, reservations and persistent volumes.
 *
 * Why a message is bound to the subscription of the moment it is said (master.cpp, apache/mesos):
 * a real master decides when it makes an update. `markGone` of an unreachable agent builds each
 * task's TASK_GONE_BY_OPERATOR and forwards it only if the framework is connected ("Dropping
 * update ... for disconnected framework" otherwise); `Framework::send` writes on the framework's
 * HTTP connection of that moment. The framework turns disconnected when the master processes the
 * close of that connection (`exited` → `_exited` → `disconnect`), and nothing said while it is
 * disconnected is kept for its next SUBSCRIBE: master-generated updates carry no uuid and are
 * not retried (mesos-v1-scheduler-api.md §1.8, §7.1); the framework learns by reconciling. Here a
 * message waits on a timer between the model saying it and its delivery, so without this binding
 * one said while no framework was subscribed could reach a subscription opened meanwhile. The
 * other side of the same rule: a subscription whose close the fake master has not processed yet
 * is still the framework's connection, as it is for a real master, so what is said then is
 * written on it (and recorded in `statusesSent` with its stream id) even though its scheduler is
 * gone.
 *
 * When the framework's connection closes, the master model is told the framework disconnected
 * ({@link SimBackedMaster.frameworkDisconnected}), as a real master does when it processes the
 * close (master.cpp `exited` → `_exited` → `disconnect` → `deactivate(framework, rescind)`): no
 * more offers, the outstanding ones withdrawn, the failover timeout started (the model has
 * none: the framework's tasks keep running however long it is away). Updates the agents send meanwhile reach no one (master.cpp
 * `statusUpdate` drops an update "for a disconnected framework"); the agent keeps it
 * unacknowledged. The next SUBSCRIBE with the framework id reactivates the framework
 * (`failoverFramework` → `_failoverFramework`) and the master broadcasts the framework to its
 * agents (`sendFrameworkUpdates`, an `UpdateFrameworkMessage` each), on which every agent resends
 * its pending unacknowledged updates at once (slave.cpp `updateFramework` →
 * `taskStatusUpdateManager->resume()`) rather than at its next retry (10 s, doubling up to 10 min,
 * src/slave/constants.hpp): the model's `frameworkSubscribed` → `UpdateBook.retryLatest`.
 */
export async function startRealTimeMaster(agents: readonly SimAgentSpec[], o: { readonly defaultRole?: string; readonly timings?: SimTimings } = {}): Promise<RealTimeMaster> {
  const timers = new Map<number, NodeJS.Timeout>();
  let seq = 0;
  let closed = false;
  // Set once started; the world's callbacks run only after that.
  const ref: { master?: SimBackedMaster } = {};
  let lastStream: string | undefined;
  const later = (dueMs: number, run: () => void): number => {
    const id = ++seq;
    timers.set(id, setTimeout(() => {
      timers.delete(id);
      if (!closed) run();
    }, Math.max(0, dueMs - Date.now())));
    return id;
  };
  const control = { holdOffers: false };
  // A new subscription rescinds every offer outstanding (made to an earlier one) before anything
  // reaches it: done by whichever comes first, the pump or a delivery. Done by the pump alone, an
  // offer made after the subscription could reach the framework first and then be rescinded under
  // its ACCEPT (the release of a retired reservation was lost so: resident-on-mesos, 1 in 12 runs
  // under load).
  const rescindOnNewStream = (m: SimBackedMaster): void => {
    const stream = m.fake.streamId;
    if (stream !== undefined && stream !== lastStream) {
      lastStream = stream;
      m.cluster.rescindOffers();
    }
  };
  const deliver = (input: SchedulerInput, saidOnStream: string | undefined): void => {
    const m = ref.master;
    if (m === undefined || !m.fake.subscribed || (input.type === 'offers' && control.holdOffers)) return;
    rescindOnNewStream(m);
    // Said while no framework was subscribed, or to a subscription gone since: lost with it.
    if (m.fake.streamId !== saidOnStream) return;
    if (input.type === 'offers') {
      // An offer rescinded since it was made (a new subscription's rescind) is not sent.
      const outstanding = new Set(m.cluster.outstandingOffers().map((o) => o.offerId));
      const offers = input.offers.filter((o) => outstanding.has(o.offerId));
      if (offers.length === 0) return;
      m.deliver(offers.length === input.offers.length ? input : { ...input, offers });
      return;
    }
    m.deliver(input);
  };
  const m = await SimBackedMaster.start({
    nowMs: () => Date.now(),
    toFramework: (dueMs, input) => {
      const saidOnStream = ref.master?.fake.streamId;
      later(dueMs, () => deliver(input, saidOnStream));
    },
    schedule: (dueMs, event) => later(dueMs, () => ref.master?.onClusterEvent(event)),
    cancel: (id) => {
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
    streams: createWorldStreams('real-time-master'),
  }, agents, {
    timings: o.timings ?? QUICK_TIMINGS,
    taskKilling: false,
    defaultRole: o.defaultRole ?? '*',
    // The simulated executor reads only the run spec's id and version.
    runSpecOf: (id) => makeApp({ id }),
  });
  ref.master = m;
  // The framework's connection closed (its scheduler stopped or died): the master model hears it
  // after the calls that arrived before the close, as a real master processes them in order.
  m.fake.onStreamClosed = () => {
    if (closed) return;
    m.processCalls();
    m.frameworkDisconnected();
  };
  m.cluster.start();
  const pump = setInterval(() => {
    rescindOnNewStream(m); // offers made to an earlier subscription are gone
    m.processCalls();
  }, 5);
  return {
    master: m,
    url: m.url,
    get holdOffers() { return control.holdOffers; },
    set holdOffers(hold: boolean) { control.holdOffers = hold; },
    close: async () => {
      closed = true;
      clearInterval(pump);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await m.close();
    },
  };
}
