import type { ResolvedAgentCheck } from '../../scheduler/model/launch';
import { runProbe, type ProbeContext } from './health-probe';
import { RepeatingProbe } from './repeating-probe';

/** What a health checker tells its executor. */
export interface HealthReports {
  /** A verdict to report: the first healthy one and every unhealthy one (§7.5). */
  result(healthy: boolean): void;
  /** `maxConsecutiveFailures` counted failures: the executor must kill the task. */
  exhausted(): void;
}

/**
 * The agent-run health checker of one task, with the Mesos health checker's semantics
 * (mesos-v1-scheduler-api.md §5.2 `HealthCheck`, §7.5): the first check `delayMs` after
 * TASK_RUNNING, then one `intervalMs` after each check finishes; failures are ignored until the
 * first success or until `gracePeriodMs` after launch (the grace includes the delay); healthy →
 * healthy results are not reported again, every counted failure is; at
 * `failures >= maxConsecutiveFailures` (0 kills at the first counted failure, service-spec §2.5)
 * checking stops and the executor kills the task.
 */
export class HealthChecker {
  private readonly runs: RepeatingProbe<boolean>;
  private failures = 0;
  private hadSuccess: boolean;
  private healthy: boolean | undefined;

  constructor(
    private readonly resolved: ResolvedAgentCheck,
    ctx: ProbeContext,
    private readonly launchedAtMs: number,
    /** The verdict last reported before a restart: a task once healthy is past its grace period. */
    priorHealthy: boolean | undefined,
    private readonly reports: HealthReports,
  ) {
    this.healthy = priorHealthy;
    this.hadSuccess = priorHealthy === true;
    this.runs = new RepeatingProbe((signal) => runProbe(resolved, ctx, signal), (passed) => this.verdict(passed, Date.now()));
  }

  /** Schedule the first check `delayMs` from now. */
  start(delayMs: number): void {
    this.runs.start(delayMs);
  }

  /** No more checks; a check in flight is abandoned. */
  stop(): void {
    this.runs.stop();
  }

  /** Takes a check's result; the delay to the next check, or undefined when checking stops (exhausted). */
  private verdict(passed: boolean, nowMs: number): number | undefined {
    const check = this.resolved.check;
    if (passed) {
      this.failures = 0;
      this.hadSuccess = true;
      if (this.healthy !== true) {
        this.healthy = true;
        this.reports.result(true);
      }
      return check.intervalMs;
    }
    if (!this.hadSuccess && nowMs < this.launchedAtMs + check.gracePeriodMs) return check.intervalMs;
    this.failures++;
    this.healthy = false;
    this.reports.result(false);
    if (this.failures < check.maxConsecutiveFailures) return check.intervalMs;
    this.reports.exhausted();
    return undefined;
  }
}
