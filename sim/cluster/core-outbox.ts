import type { TaskStatus } from '../../src/scheduler/model/inputs';
import type { Offer } from '../../src/scheduler/model/offer';
import type { MasterOutbox } from '../../src/master/master-ports';
import type { SimContext } from '../sim-context';

/**
 * Everything the simulated master tells the scheduler core goes through here: each input is
 * posted with `ctx.toCore` and traced as one compact `{t, k:'cluster', in, …}` record (fixed key
 * order; `due` only when it differs from `t`). While no scheduler is subscribed (a
 * `schedulerFailover` fault) nothing is posted: each record is traced with `lost: true`, as a
 * Mesos master drops what it would tell a disconnected framework (mesos-v1-scheduler-api.md §1.8).
 */
export class CoreOutbox implements MasterOutbox {
  /** A scheduler is subscribed and hears what the master says. */
  connected = true;
  /** The run keeps trace records: build them only then. */
  private readonly tracing: boolean;

  constructor(private readonly ctx: SimContext) {
    this.tracing = ctx.tracing !== false;
  }

  /** The framework (re)subscribed: the scheduler hears `subscribed` with its framework id. */
  subscribed(frameworkId: string): void {
    const now = this.ctx.nowMs();
    this.ctx.trace({ t: now, k: 'cluster', in: 'subscribed', frameworkId });
    this.ctx.toCore(now, { type: 'subscribed', frameworkId });
  }

  private post(rec: Record<string, unknown>, dueMs: number, input: Parameters<SimContext['toCore']>[1]): void {
    if (!this.connected) {
      this.ctx.trace({ ...rec, lost: true });
      return;
    }
    this.ctx.trace(rec);
    this.ctx.toCore(dueMs, input);
  }

  /** Post a status update at `dueMs` (its uuid, if any, is the master's). */
  status(dueMs: number, status: TaskStatus): void {
    if (!this.tracing) {
      if (this.connected) this.ctx.toCore(dueMs, { type: 'status', status });
      return;
    }
    const now = this.ctx.nowMs();
    const rec: Record<string, unknown> = { t: now, k: 'cluster', in: 'status', task: status.taskId };
    if (dueMs !== now) rec.due = dueMs;
    if (status.agentId !== undefined) rec.agent = status.agentId;
    rec.state = status.state;
    if (status.reason !== undefined) rec.reason = status.reason;
    if (status.healthy !== undefined) rec.healthy = status.healthy;
    if (status.uuid !== undefined) rec.uuid = status.uuid;
    this.post(rec, dueMs, { type: 'status', status });
  }

  /** Post one batch of offers (already in agentId order). */
  offers(offers: readonly Offer[]): void {
    const now = this.ctx.nowMs();
    if (!this.tracing) {
      if (this.connected) this.ctx.toCore(now, { type: 'offers', offers });
      return;
    }
    this.post({
      t: now,
      k: 'cluster',
      in: 'offers',
      offers: offers.map((o) => o.offerId),
      agents: offers.map((o) => o.agent.agentId),
    }, now, { type: 'offers', offers });
  }

  /** Tell the framework an offer is no longer valid. */
  rescind(offerId: string): void {
    const now = this.ctx.nowMs();
    this.post({ t: now, k: 'cluster', in: 'rescind', offer: offerId }, now, { type: 'rescind', offerId });
  }

  /** Tell the framework an agent is gone for good. */
  agentLost(agentId: string): void {
    const now = this.ctx.nowMs();
    this.post({ t: now, k: 'cluster', in: 'agentLost', agent: agentId }, now, { type: 'agentLost', agentId });
  }
}
