import { sameCheckStatus, type CheckStatus } from '../../scheduler/model/checks';
import type { LaunchCheck } from '../../scheduler/model/launch';
import { runCheck } from './check-probe';
import type { ProbeContext } from './health-probe';
import { RepeatingProbe } from './repeating-probe';

/**
 * The runner of one task's `check` (Marathon's generalized check) on the local cluster, as a
 * Mesos executor's checker runs it (mesos-v1-scheduler-api.md §5.5): the first run `delayMs`
 * after it starts (the task running, or adopted after a restart), then one `intervalMs` after each
 * run finishes; each run's status ({@link runCheck}) is reported only when it differs from the last
 * one reported — the first differs from "no result yet" unless it is none itself — and a check is
 * never acted upon. One timer or one run at a time per task, nothing kept but the last status.
 */
export class CheckRunner {
  private readonly runs: RepeatingProbe<CheckStatus>;
  private last: CheckStatus;

  constructor(
    private readonly check: LaunchCheck,
    ctx: ProbeContext,
    /** The status last reported (before a restart); undefined: none yet, which is the kind's empty status. */
    prior: CheckStatus | undefined,
    private readonly report: (status: CheckStatus) => void,
  ) {
    this.last = prior ?? emptyStatus(check);
    this.runs = new RepeatingProbe((signal) => runCheck(check, ctx, signal), (status) => this.reported(status));
  }

  /** Schedule the first run the check's `delayMs` from now. */
  start(): void {
    this.runs.start(this.check.delayMs);
  }

  /** No more runs; a run in flight is abandoned. */
  stop(): void {
    this.runs.stop();
  }

  /** Reports `status` when it differs from the last one reported; the next run an interval later. */
  private reported(status: CheckStatus): number {
    if (!sameCheckStatus(status, this.last)) {
      this.last = status;
      this.report(status);
    }
    return this.check.intervalMs;
  }
}

/** The status of a check of this kind with no result yet (Mesos's checker starts from it). */
function emptyStatus(check: LaunchCheck): CheckStatus {
  return check.kind === 'http' ? { http: {} } : check.kind === 'tcp' ? { tcp: {} } : { command: {} };
}
