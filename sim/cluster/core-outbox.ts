import type { TaskStatus } from '../../src/scheduler/model/inputs';
import type { Offer } from '../../src/scheduler/model/offer';
import type { MasterOutbox } from '../../src/master/master-ports';
import type { SimContext } from '../sim-context';

/**
 * Everything the simulated master tells the scheduler core goes through here: each input is
 * posted with `ctx.toCore` and traced as one compact `{t, k:'cluster', in, …}` record (fixed key
 * order; `due` only when it differs from `t`).
 */
export class CoreOutbox implements MasterOutbox {
  constructor(private readonly ctx: SimContext) {}

  /** Post a status update at `dueMs` (its uuid, if any, is the master's). */
  status(dueMs: number, status: TaskStatus): void {
    const now = this.ctx.nowMs();
    const rec: Record<string, unknown> = { t: now, k: 'cluster', in: 'status', task: status.taskId };
    if (dueMs !== now) rec.due = dueMs;
    if (status.agentId !== undefined) rec.agent = status.agentId;
    rec.state = status.state;
    if (status.reason !== undefined) rec.reason = status.reason;
    if (status.healthy !== undefined) rec.healthy = status.healthy;
    if (status.uuid !== undefined) rec.uuid = status.uuid;
    this.ctx.trace(rec);
    this.ctx.toCore(dueMs, { type: 'status', status });
  }

  /** Post one batch of offers (already in agentId order). */
  offers(offers: readonly Offer[]): void {
    const now = this.ctx.nowMs();
    this.ctx.trace({
      t: now,
      k: 'cluster',
      in: 'offers',
      offers: offers.map((o) => o.offerId),
      agents: offers.map((o) => o.agent.agentId),
    });
    this.ctx.toCore(now, { type: 'offers', offers });
  }

  /** Tell the framework an offer is no longer valid. */
  rescind(offerId: string): void {
    const now = this.ctx.nowMs();
    this.ctx.trace({ t: now, k: 'cluster', in: 'rescind', offer: offerId });
    this.ctx.toCore(now, { type: 'rescind', offerId });
  }

  /** Tell the framework an agent is gone for good. */
  agentLost(agentId: string): void {
    const now = this.ctx.nowMs();
    this.ctx.trace({ t: now, k: 'cluster', in: 'agentLost', agent: agentId });
    this.ctx.toCore(now, { type: 'agentLost', agentId });
  }
}
