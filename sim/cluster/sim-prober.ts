import type { ProbeObservation, ProbeRequest, Prober } from '../../src/scheduler/ports/prober';
import type { SimContext } from '../sim-context';
import { drawDelayMs } from './draw';
import { respondHealth } from './health-responder';
import type { SimCluster } from './sim-cluster';

/**
 * Scheduler-run health checks (HTTP, HTTPS, TCP) against the simulated cluster. Each probe is
 * answered once, as a `probeResult` input at the time the answer would arrive:
 * - no such task, task terminal, agent partitioned or dead → `timedOut` at now + timeoutMs;
 * - task not (yet) running → connection refused (`connected: false`) after the drawn latency;
 * - otherwise the run spec's health model answers: latency is the `slow` model's or drawn from
 *   `timings.probeLatencyMs` (`ctx.streams.health`); beyond `timeoutMs` → `timedOut` at
 *   now + timeoutMs; HTTP/HTTPS → `httpStatus` (200 healthy, 500 failing, or the `status` model's
 *   code); TCP → `connected` (true while the service is up).
 * The answer is decided when the probe is sent (one loop entry per probe, nothing scheduled in the
 * cluster). Every probe and answer is traced.
 */
export class SimProber implements Prober {
  constructor(
    private readonly ctx: SimContext,
    private readonly cluster: SimCluster,
  ) {}

  probe(req: ProbeRequest): void {
    const now = this.ctx.nowMs();
    this.ctx.trace({ t: now, k: 'call', op: 'probe', probe: req.probeId, task: req.taskId, protocol: req.protocol });
    const target = this.cluster.probeTarget(req.taskId);
    if (target === undefined || !target.reachable || !answers(target.state)) {
      if (target !== undefined && target.reachable && !isGone(target.state)) {
        this.answer(now + this.latency(), { probeId: req.probeId, connected: false, message: 'connection refused' });
        return;
      }
      this.answer(now + req.timeoutMs, { probeId: req.probeId, timedOut: true, message: 'no answer' });
      return;
    }
    const model = this.cluster.healthModel(target.runSpecId);
    const response = respondHealth(model, now, this.cluster.scenarioStartMs, this.ctx.streams.health);
    const latency = response.latencyMs ?? this.latency();
    if (latency > req.timeoutMs) {
      this.answer(now + req.timeoutMs, { probeId: req.probeId, timedOut: true, message: `no answer within ${req.timeoutMs} ms` });
      return;
    }
    if (req.protocol === 'TCP') {
      this.answer(now + latency, { probeId: req.probeId, connected: response.up });
    } else {
      this.answer(now + latency, { probeId: req.probeId, httpStatus: response.status });
    }
  }

  private latency(): number {
    return drawDelayMs(this.ctx.streams.health, this.cluster.timings.probeLatencyMs);
  }

  private answer(dueMs: number, observation: ProbeObservation): void {
    const rec: Record<string, unknown> = { t: this.ctx.nowMs(), k: 'cluster', in: 'probe', probe: observation.probeId, due: dueMs };
    if (observation.httpStatus !== undefined) rec.status = observation.httpStatus;
    if (observation.connected !== undefined) rec.connected = observation.connected;
    if (observation.timedOut !== undefined) rec.timedOut = observation.timedOut;
    this.ctx.trace(rec);
    this.ctx.toCore(dueMs, { type: 'probeResult', observation });
  }
}

/** States in which the task's process serves its health endpoint. */
function answers(state: string): boolean {
  return state === 'TASK_RUNNING' || state === 'TASK_KILLING';
}

/** Terminal states (the process is gone: nothing listens, the probe times out). */
function isGone(state: string): boolean {
  return !(state === 'TASK_STAGING' || state === 'TASK_STARTING' || answers(state));
}
