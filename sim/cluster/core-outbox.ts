import type { TaskStatus } from '../../src/scheduler/model/inputs';
import type { Offer } from '../../src/scheduler/model/offer';
import type { SimContext } from '../sim-context';
import type { UnackedUpdate } from './cluster-types';

/**
 * Everything the simulated cluster tells the scheduler core goes through here: each input is
 * posted with `ctx.toCore` and traced as one compact `{t, k:'cluster', in, …}` record (fixed key
 * order; `due` only when it differs from `t`). Reliable status updates get a deterministic uuid
 * (`u-<n>`) and stay in the unacknowledged table until {@link acknowledge}.
 */
export class CoreOutbox {
  private uuidSeq = 0;
  private readonly unacked = new Map<string, UnackedUpdate>();

  constructor(private readonly ctx: SimContext) {}

  /**
   * Post a status update at `dueMs`. With `reliable` it gets a fresh uuid (executor/agent updates
   * in Mesos); without, none (master-generated updates: reconciliation, UNREACHABLE, GONE,
   * DROPPED, ERROR, reregistration re-sends — spec §7.1). Returns the uuid, if any.
   */
  status(dueMs: number, status: Omit<TaskStatus, 'uuid'>, reliable: boolean): string | undefined {
    const now = this.ctx.nowMs();
    const uuid = reliable ? `u-${++this.uuidSeq}` : undefined;
    const full: TaskStatus = uuid === undefined ? status : { ...status, uuid };
    if (uuid !== undefined) {
      this.unacked.set(uuid, {
        uuid,
        taskId: status.taskId,
        agentId: status.agentId ?? '',
        state: status.state,
        postedAtMs: dueMs,
      });
    }
    const rec: Record<string, unknown> = { t: now, k: 'cluster', in: 'status', task: status.taskId };
    if (dueMs !== now) rec.due = dueMs;
    if (status.agentId !== undefined) rec.agent = status.agentId;
    rec.state = status.state;
    if (status.reason !== undefined) rec.reason = status.reason;
    if (status.healthy !== undefined) rec.healthy = status.healthy;
    if (uuid !== undefined) rec.uuid = uuid;
    this.ctx.trace(rec);
    this.ctx.toCore(dueMs, { type: 'status', status: full });
    return uuid;
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

  /**
   * Remove an acknowledged update. Returns the update, `undefined` for an unknown uuid (a duplicate
   * acknowledgement, which Mesos ignores), or `'mismatch'` when the uuid belongs to another
   * task or agent (the update then stays unacknowledged).
   */
  acknowledge(agentId: string, taskId: string, uuid: string): UnackedUpdate | 'mismatch' | undefined {
    const u = this.unacked.get(uuid);
    if (u === undefined) return undefined;
    if (u.taskId !== taskId || u.agentId !== agentId) return 'mismatch';
    this.unacked.delete(uuid);
    return u;
  }

  /** Updates not acknowledged yet, in the order they were posted. */
  unacknowledged(): readonly UnackedUpdate[] {
    return [...this.unacked.values()];
  }
}
