import type { FastifyInstance } from 'fastify';
import { simRoutes } from '../api/ui/sim-routes';
import type { Scheduler } from '../scheduler/index';
import { failedBeforeStop, formatSummary, verdictText } from '../../sim/runner/format-summary';
import { formatMs } from '../../sim/runner/format-ms';
import type { RunResult } from '../../sim/runner/run-result';
import { createRunSession, type RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { PacerConfig } from './config';
import { PACE_WAKE_EVENT, paceSession } from './pace-session';
import { loadWorkload, reproduceCommand } from './run-sim';
import { apiEdges } from './runtime-parts';
import { simApi } from './sim-api';
import type { ListenerAddress } from './api-listeners';
import { simViewSource } from './sim-view-source';
import { CoreFailure, haltingHandler, reportCoreFailure, type CoreFailureHandler } from './core-failure';
import { logDecision } from './decision-log';
import { silentLog, type PacerLog } from './pacer-log';

/** pacer serving the REST API over the simulated cluster. */
export interface RunningSim {
  /** `host:port` the API listens on (the HTTPS one with `--disable_http`). */
  readonly address: string;
  /** Every listener (HTTP and/or HTTPS). */
  readonly listening: readonly ListenerAddress[];
  readonly app: FastifyInstance;
  readonly scheduler: Scheduler;
  /** The paced run (virtual clock, loop, simulated cluster). */
  readonly session: RunSession;
  /**
   * The workload's verdict: settles when its duration has passed in virtual time, or at close() if
   * sooner — then with `stopped` (the virtual time reached) and no verdict on what it never checked.
   */
  readonly workload: Promise<RunResult>;
  /** Re-reads the API's credentials and tokens files (main.ts: on SIGHUP). */
  reloadAuth(): void;
  /** Stops pacing (reporting the workload if it had not ended), then stops serving. Idempotent. */
  close(): Promise<void>;
}

/** What a caller (main, tests) may redirect. */
export interface StartSimHooks {
  /**
   * Where the decisions (component `scheduler`, with the virtual time since the start in `at`),
   * the requests and the workload's summary (component `sim`) go. Default: nowhere.
   */
  readonly log?: PacerLog;
  /** The core failed (an input of the run, or an API command). Default: log it and end the process. */
  readonly onCoreFailure?: CoreFailureHandler;
}

/**
 * `--cluster sim` with the REST API: the workload file (`config.workload`, `config.seed`) on the
 * simulated cluster, paced in real time (`config.speed` virtual ms per wall ms), one log record per
 * decision of the core at its virtual time, with Marathon's
 * API and `/v2/events` on `address:port` over the run's own core and virtual clock; the store is
 * the simulator's in-memory one. API commands are handled in the run at the current virtual
 * instant (`RunSession.submit`), among the workload's own timeline steps and faults. When the
 * workload's duration has passed its summary is logged and the cluster keeps running, paced,
 * until close(). A workload that cannot be read or is invalid fails here with its own message.
 * A failure of the core — in an input of the run (the session wraps it with the input) or in an
 * API command — goes to `onCoreFailure`, which ends the process, as over the other clusters.
 */
export async function startSim(config: PacerConfig, hooks: StartSimHooks = {}): Promise<RunningSim> {
  const loaded = loadWorkload(config.workload);
  if ('errors' in loaded) throw new Error(loaded.errors);
  const scenario = loaded.scenario;
  const log = hooks.log ?? silentLog();
  const onCoreFailure = hooks.onCoreFailure ?? haltingHandler(reportCoreFailure(log));
  const { listeners, auth } = apiEdges(config, log);
  // No trace: a run steered through the API is not replayable, and it runs on after finish(),
  // which takes the trace's digest once. Its decisions are logged as they are read, not kept (the
  // summary leaves them out); after finish() the session keeps no steps either.
  const session = createRunSession(scenario, { seed: config.seed, trace: false, decisions: true, keepDecisions: false });
  const decisions = log.child({ component: 'scheduler' });
  session.onDecision(({ atMs, decision }) => logDecision(decisions, decision, { at: formatMs(atMs) }));
  const simLog = log.child({ component: 'sim' });
  const wake = new EventTarget();
  const { app } = simApi(session, scenario, config, () => wake.dispatchEvent(new Event(PACE_WAKE_EVENT)), Date.now(), { listeners, auth, log, onCoreFailure });
  let verdict: RunResult | undefined;
  simRoutes(app, simViewSource(session, scenario, config.speed, () => verdict));
  let listening: ListenerAddress[];
  try {
    listening = await listeners.listen(app);
  } catch (err) {
    auth?.close();
    await app.close();
    throw err;
  }
  const address = listeners.leaderAddress;
  const stop = new AbortController();
  const reproduce = reproduceCommand(config.workload, config.seed ?? scenario.seed);
  // The decisions were on the terminal already: the summary leaves them out.
  const report = (result: RunResult): void => void simLog.info(
    { workload: result.name, seed: result.seed, ...verdictFields(result), summary: formatSummary(result, reproduce, { decisions: false }) },
    `workload ${result.name} seed ${result.seed}: ${verdictText(result)}`,
  );
  const pacing = pace(session, config.speed, stop.signal, wake, report, simLog, onCoreFailure);
  // A stopped workload has no verdict to show (and the API is closing).
  pacing.workload.then((result) => void (verdict = result.stopped === undefined ? result : undefined), () => undefined);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    stop.abort();
    await pacing.done;
    await Promise.all([app.close(), listeners.close()]);
    auth?.close();
  };
  return {
    address, listening, app, session, workload: pacing.workload,
    // The leading core: after a workload's schedulerFailover, the one that took over.
    get scheduler() {
      return session.scheduler;
    },
    reloadAuth: () => auth?.reload(), close: () => (closing ??= close()),
  };
}

/** The verdict's fields of the log record: `passed`, or where a stopped run stopped. */
function verdictFields(result: RunResult): Record<string, unknown> {
  if (result.stopped === undefined) return { passed: result.passed };
  return { stoppedAt: formatMs(result.stopped.atMs), ...(failedBeforeStop(result) ? { passed: false } : {}) };
}

/**
 * Paces the workload to its duration, reports its verdict (`report`), then paces on with no end
 * until `signal` aborts. Stopped (`signal`) before its duration, the workload is reported as
 * stopped at the virtual time reached, without a verdict on what it never checked. A violated
 * invariant stops the run (the API keeps serving its state).
 */
function pace(
  session: RunSession, speed: number, signal: AbortSignal, wake: EventTarget,
  report: (result: RunResult) => void, log: PacerLog, onCoreFailure: CoreFailureHandler,
): { readonly workload: Promise<RunResult>; readonly done: Promise<void> } {
  const workload = paceSession(session, VIRTUAL_EPOCH_MS, speed, signal, wake).then(() => {
    const result = signal.aborted && session.unfinished() ? session.stop() : session.finish();
    report(result);
    return result;
  });
  const done = workload.then(async (result) => {
    if (signal.aborted || result.violations.length > 0) return;
    session.extendTo(Number.POSITIVE_INFINITY);
    await paceSession(session, session.nowMs(), speed, signal, wake);
    if (!signal.aborted) log.error({ violations: session.violations() }, `the simulated cluster stopped at virtual ${formatMs(session.nowMs() - VIRTUAL_EPOCH_MS)}: invariant violated: ${session.violations().join('; ')}`);
  }).catch((err: unknown) => {
    // A failure of the core (the session wraps it with its input): the process stops, as over
    // the other clusters. Anything else is the simulator's: say so; the API keeps serving.
    if (err instanceof CoreFailure) onCoreFailure(err);
    else log.error({ err }, `the simulated run failed: ${(err as Error).message}`);
  });
  // Whoever does not wait for the verdict must not see an unhandled rejection.
  workload.catch(() => undefined);
  return { workload, done };
}
