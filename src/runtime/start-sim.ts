import type { FastifyInstance } from 'fastify';
import type { ApiConfig, ApiDeps } from '../api/api-deps';
import { EventStreamHub } from '../api/events/event-stream-hub';
import { buildServer } from '../api/server';
import { simRoutes } from '../api/ui/sim-routes';
import { isoTime } from '../scheduler/kernel/iso-time';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import type { Scheduler } from '../scheduler/scheduler';
import { DEFAULT_SCHEDULER_OPTIONS } from '../scheduler/scheduler-options';
import { formatSummary } from '../../sim/runner/format-summary';
import { formatMs } from '../../sim/runner/format-ms';
import type { RunResult } from '../../sim/runner/run-result';
import { createRunSession, type RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import type { Scenario } from '../../sim/scenario/scenario';
import type { PacerConfig } from './config';
import { PACE_WAKE_EVENT, paceSession } from './pace-session';
import { loadWorkload, reproduceCommand } from './run-sim';
import { pacerBuild } from './pacer-build';
import { apiEdges, withListenerFacts } from './runtime-parts';
import type { ApiListeners, ListenerAddress } from './api-listeners';
import { simViewSource } from './sim-view-source';
import { decisionLine } from './decision-line';

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
  /** The workload's verdict: settles when its duration has passed in virtual time, or at close() if sooner. */
  readonly workload: Promise<RunResult>;
  /** Re-reads the API's credentials and tokens files (main.ts: on SIGHUP). */
  reloadAuth(): void;
  /** Stops pacing (reporting the workload if it had not ended), then stops serving. Idempotent. */
  close(): Promise<void>;
}

/** What a caller (main, tests) may redirect. */
export interface StartSimHooks {
  /**
   * One line per scheduling decision (`config.logFormat`: readable, or one JSON object), without
   * its newline; default: stdout.
   */
  readonly decisions?: (line: string) => void;
  /** Progress lines and the workload's summary; default: stderr. */
  readonly log?: (text: string) => void;
}

/**
 * `--cluster sim` with the REST API: the workload file (`config.workload`, `config.seed`) on the
 * simulated cluster, paced in real time (`config.speed` virtual ms per wall ms), one line per
 * decision of the core on stdout (`config.logFormat`), with Marathon's
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
  const { listeners, auth } = apiEdges(config);
  const log = hooks.log ?? ((text: string) => void process.stderr.write(`${text}\n`));
  // No trace: a run steered through the API is not replayable, and it runs on after finish(),
  // which takes the trace's digest once. Its decisions go to the terminal as they are read.
  const session = createRunSession(scenario, { seed: config.seed, trace: false, decisions: true });
  const output = hooks.decisions ?? ((line: string) => void process.stdout.write(`${line}\n`));
  session.onDecision(({ atMs, decision }) => output(decisionLine(
    decision, config.logFormat === 'json' ? isoTime(VIRTUAL_EPOCH_MS + atMs) : formatMs(atMs).padStart(12), config.logFormat,
  )));
  const clock = { nowMs: () => session.nowMs() };
  const wake = new EventTarget();
  const hub = new EventStreamHub({ subscribe: (listener) => session.scheduler.subscribe(listener), clock });
  const startedAtMs = Date.now();
  const deps: ApiDeps = {
    scheduler: session.scheduler, clock, events: hub,
    submit: (command: Command): CommandResult => {
      const result = session.submit(command);
      wake.dispatchEvent(new Event(PACE_WAKE_EVENT));
      return result;
    },
    config: simApiConfig(config, scenario, listeners),
    frameworkId: () => undefined,
    uptimeMs: () => Date.now() - startedAtMs,
  };
  const app = buildServer({ deps, stream: hub, auth, serverFactory: listeners.serverFactory });
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
  const pacing = pace(session, config.speed, stop.signal, wake, (result) => log(formatSummary(result, reproduce, { decisions: false })), log);
  pacing.workload.then((result) => void (verdict = result), () => undefined);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    stop.abort();
    await pacing.done;
    await Promise.all([app.close(), listeners.close()]);
    auth?.close();
  };
  return {
    address, listening, app, scheduler: session.scheduler, session, workload: pacing.workload,
    reloadAuth: () => auth?.reload(), close: () => (closing ??= close()),
  };
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

/** What `/v2/info` reports and the routes validate against: the run's core settings (the workload's options). */
function simApiConfig(config: PacerConfig, scenario: Scenario, listeners: ApiListeners): ApiConfig {
  const agents = scenario.agents.length;
  return withListenerFacts({
    // The simulated core is built from the workload's options, not from the flags.
    defaultRole: scenario.options.defaultRole,
    newGroupEnforceRole: DEFAULT_SCHEDULER_OPTIONS.newGroupEnforceRole,
    maxRunningDeployments: DEFAULT_SCHEDULER_OPTIONS.maxRunningDeployments,
    features: scenario.options.taskKilling ? ['task_killing'] : [],
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    bodyLimitBytes: config.bodyLimitBytes, build: pacerBuild(),
    clusterKind: 'sim', master: `sim://${agents} simulated agent(s), workload ${scenario.name}`,
    prometheus: true,
  }, listeners);
}
