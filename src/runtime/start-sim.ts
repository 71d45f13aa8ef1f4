import type { FastifyInstance } from 'fastify';
import { simRoutes } from '../api/ui/sim-routes';
import type { MarathonEvent } from '../scheduler/model/events';
import type { Scheduler } from '../scheduler/scheduler';
import { formatMs, formatSummary } from '../../sim/runner/format-summary';
import type { RunResult } from '../../sim/runner/run-result';
import { createRunSession, type RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { PacerConfig } from './config';
import { PACE_WAKE_EVENT, paceSession } from './pace-session';
import { loadWorkload, reproduceCommand } from './run-sim';
import { reachableAt } from './runtime-parts';
import { wireEventJson } from '../api/events/wire-event-json';
import { simViewSource } from './sim-view-source';
import { simApi } from './sim-api';

/** pacer serving the REST API over the simulated cluster. */
export interface RunningSim {
  /** `host:port` the API listens on. */
  readonly address: string;
  readonly app: FastifyInstance;
  readonly scheduler: Scheduler;
  /** The paced run (virtual clock, loop, simulated cluster). */
  readonly session: RunSession;
  /** The workload's verdict: settles when its duration has passed in virtual time, or at close() if sooner. */
  readonly workload: Promise<RunResult>;
  /** Stops pacing (reporting the workload if it had not ended), then stops serving. Idempotent. */
  close(): Promise<void>;
}

/** What a caller (main, tests) may redirect. */
export interface StartSimHooks {
  /** Every core event; default: one JSON line on stdout, as `runSim` streams them. */
  readonly onEvent?: (atMs: number, event: MarathonEvent) => void;
  /** Progress lines and the workload's summary; default: stderr. */
  readonly log?: (text: string) => void;
}

/**
 * `--cluster sim` with the REST API: the workload file (`config.workload`, `config.seed`) on the
 * simulated cluster, paced in real time (`config.speed` virtual ms per wall ms), with Marathon's
 * API and `/v2/events` on `address:port` over the run's own core and virtual clock; the store is
 * the simulator's in-memory one. API commands are handled in the run at the current virtual
 * instant (`RunSession.submit`), among the workload's own timeline steps and faults. When the
 * workload's duration has passed its summary is logged and the cluster keeps running, paced,
 * until close(). A workload that cannot be read or is invalid fails here with its own message.
 */
export async function startSim(config: PacerConfig, hooks: StartSimHooks = {}): Promise<RunningSim> {
  const loaded = loadWorkload(config.workload);
  if ('errors' in loaded) throw new Error(loaded.errors);
  const scenario = loaded.scenario;
  const log = hooks.log ?? ((text: string) => void process.stderr.write(`${text}\n`));
  // No trace: a run steered through the API is not replayable, and it runs on after finish(),
  // which takes the trace's digest once.
  const session = createRunSession(scenario, { seed: config.seed, trace: false });
  session.onEvent(hooks.onEvent ?? ((_atMs, event) => void process.stdout.write(`${JSON.stringify(wireEventJson(event, 'full'))}\n`)));
  const wake = new EventTarget();
  const { app } = simApi(session, scenario, config, () => wake.dispatchEvent(new Event(PACE_WAKE_EVENT)), Date.now());
  let verdict: RunResult | undefined;
  simRoutes(app, simViewSource(session, scenario, config.speed, () => verdict));
  try {
    await app.listen({ host: config.address, port: config.port });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = reachableAt(app, config);
  const stop = new AbortController();
  const reproduce = reproduceCommand(config.workload, config.seed ?? scenario.seed);
  const pacing = pace(session, config.speed, stop.signal, wake, (result) => log(formatSummary(result, reproduce)), log);
  pacing.workload.then((result) => void (verdict = result), () => undefined);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    stop.abort();
    await pacing.done;
    await app.close();
  };
  return { address, app, scheduler: session.scheduler, session, workload: pacing.workload, close: () => (closing ??= close()) };
}

/**
 * Paces the workload to its duration, reports its verdict (`report`), then paces on with no end
 * until `signal` aborts. A violated invariant stops the run (the API keeps serving its state).
 */
function pace(
  session: RunSession, speed: number, signal: AbortSignal, wake: EventTarget,
  report: (result: RunResult) => void, log: (text: string) => void,
): { readonly workload: Promise<RunResult>; readonly done: Promise<void> } {
  const workload = paceSession(session, VIRTUAL_EPOCH_MS, speed, signal, wake).then(() => {
    const result = session.finish();
    report(result);
    return result;
  });
  const done = workload.then(async (result) => {
    if (signal.aborted || result.violations.length > 0) return;
    session.extendTo(Number.POSITIVE_INFINITY);
    await paceSession(session, session.nowMs(), speed, signal, wake);
    if (!signal.aborted) log(`pacer: the simulated cluster stopped at virtual ${formatMs(session.nowMs() - VIRTUAL_EPOCH_MS)}: invariant violated: ${session.violations().join('; ')}`);
  }).catch((err: unknown) => {
    // A fault of the core or the simulator: say so; the API keeps serving the state it left.
    log(`pacer: the simulated run failed: ${(err as Error).stack ?? String(err)}`);
  });
  // Whoever does not wait for the verdict must not see an unhandled rejection.
  workload.catch(() => undefined);
  return { workload, done };
}
