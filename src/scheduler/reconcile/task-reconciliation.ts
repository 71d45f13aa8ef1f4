import type { CorePorts, InstanceContext } from '../instances/instance-context';

/** Reconciliation talks to the driver itself (through the applier's ports, instances/effect-applier.ts). */
type ReconcileContext = InstanceContext & Pick<CorePorts, 'driver' | 'timers'>;

/** One task to reconcile: its id and the agent it was launched on. */
type KnownTask = { taskId: string; agentId?: string };

/**
 * Reconciliation, as Marathon does it after (re)subscribing and periodically: explicit for every
 * task the core knows (with its agent id), then implicit (an empty list) so that the cluster also
 * reports tasks the core does not know — strays, which are killed as unknown tasks when they
 * report. The explicit part asks about at most `instancesPerInput` tasks per input (issue 11 item
 * 4: with 100,000 tasks one input took over a second); the rest in the next inputs (a
 * `continueReconcile` timer due at once), walking the core's instances as they are then; the
 * implicit request follows the last part. A new reconciliation restarts the walk.
 */
export class TaskReconciliation {
  private walk: Iterator<KnownTask> | undefined;
  /** The next task of the walk, taken before the previous input stopped. */
  private next: IteratorResult<KnownTask> | undefined;
  private timerId: number | undefined;

  /** Starts (or restarts) a reconciliation of every known task. */
  start(ctx: ReconcileContext): void {
    this.walk = ctx.state.launchedTasks();
    this.next = undefined;
    this.share(ctx);
  }

  /** The `continueReconcile` timer: the next share of the walk. */
  onContinue(ctx: ReconcileContext): void {
    this.timerId = undefined;
    if (this.walk !== undefined) this.share(ctx);
  }

  private share(ctx: ReconcileContext): void {
    const walk = this.walk as Iterator<KnownTask>;
    const tasks: KnownTask[] = [];
    let r = this.next ?? walk.next();
    while (r.done !== true && tasks.length < ctx.options.instancesPerInput) {
      tasks.push(r.value);
      r = walk.next();
    }
    if (tasks.length > 0) ctx.driver.reconcile(tasks);
    if (r.done === true) {
      this.walk = undefined;
      this.next = undefined;
      ctx.driver.reconcile([]);
      return;
    }
    this.next = r;
    this.timerId ??= ctx.timers.schedule(ctx.clock.nowMs(), { type: 'timer', timer: { kind: 'continueReconcile' } });
  }
}
