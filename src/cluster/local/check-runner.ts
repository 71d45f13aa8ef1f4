import { sameCheckStatus, type CheckStatus } from '../../scheduler/model/checks';
import type { LaunchCheck } from '../../scheduler/model/launch';
import { runCheck } from './check-probe';
import type { ProbeContext } from './health-probe';

/**
 * The runner of one task's `check` (Marathon's generalized check) on the local cluster, as a
 * Mesos executor's checker runs it (mesos-v1-scheduler-api.md §5.5): the first run `delayMs`
 * after it starts (the task running, or adopted after a restart), then one `intervalMs` after each
 * run finishes; each run's status ({@link runCheck}) is reported only when it differs from the last
 * one reported — the first differs from "no result yet" unless it is none itself — and a check is
 * never acted upon. One timer or one run at a time per task, nothing kept but the last status.
 */
export class CheckRunner {
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private stopped = false;
  private last: CheckStatus;

  constructor(
    private readonly check: LaunchCheck,
    private readonly ctx: ProbeContext,
    /** The status last reported (before a restart); undefined: none yet, which is the kind's empty status. */
    prior: CheckStatus | undefined,
    private readonly report: (status: CheckStatus) => void,
  ) {
    this.last = prior ?? emptyStatus(check);
  }

  /** Schedule the first run `delayMs` from now. */
  start(): void {
    this.schedule(this.check.delayMs);
  }

  /** No more runs; a run in flight is abandoned. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), Math.max(0, delayMs));
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    const status = await runCheck(this.check, this.ctx, this.abort.signal);
    if (this.stopped) return;
    if (!sameCheckStatus(status, this.last)) {
      this.last = status;
      this.report(status);
    }
    this.schedule(this.check.intervalMs);
  }
}

/** The status of a check of this kind with no result yet (Mesos's checker starts from it). */
function emptyStatus(check: LaunchCheck): CheckStatus {
  return check.kind === 'http' ? { http: {} } : check.kind === 'tcp' ? { tcp: {} } : { command: {} };
}
