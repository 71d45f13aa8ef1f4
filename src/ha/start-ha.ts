import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api/api-deps';
import { leaderProxyErrors } from '../api/errors';
import { buildServer } from '../api/server';
import { describeZkUrl, parseZkUrl } from '../cluster/mesos/zk/zk-url';
import type { ApiListeners, ListenerAddress } from '../runtime/api-listeners';
import type { PacerConfig } from '../runtime/config';
import { silentLog } from '../runtime/pacer-log';
import { apiConfigOf, apiEdges, type RuntimeHooks } from '../runtime/runtime-parts';
import { localClusterFacts, startLocalDuties } from '../runtime/start-local';
import { mesosClusterFacts, startMesosDuties } from '../runtime/start-mesos';
import { LeaderElection } from './leader-election';
import { leaderProxy } from './leader-proxy';
import { Leadership, type LeaderDuties } from './leadership';
import { TermEventStream } from './term-event-stream';

/** Marathon's `--zk_connection_timeout` and `--zk_timeout` defaults (ms): opening a session, and one request. */
const ZK_CONNECT_TIMEOUT_MS = 10_000;
const ZK_REQUEST_TIMEOUT_MS = 10_000;

/** What a caller (main, tests) may change besides the runtime's hooks (log, core failure, input observer). */
export interface HaHooks extends RuntimeHooks {
  /** The leader's duties (default: from `--cluster`, local or mesos: src/runtime/start-local.ts, start-mesos.ts). */
  readonly startDuties?: (config: PacerConfig, hooks: RuntimeHooks) => LeaderDuties;
  /** Where election news goes, one line each (default: the log, component `ha`). */
  readonly electionLog?: (line: string) => void;
  /** The duties could not start (store held by another process, corrupt), or the Mesos driver gave up. Default: log, close, exit code 1. */
  readonly onFatal?: (error: Error) => void;
  /** How long a standby's request waits for a leader before its 503 (default 2500 ms, Marathon's). */
  readonly noLeaderWaitMs?: number;
  /** After a session expired, wait before joining again (default 1000 ms). */
  readonly rejoinDelayMs?: number;
}

/** A running pacer among several (`--zk`). */
export interface RunningHaPacer {
  /** `host:port` it advertises (`--hostname`, the bound port). */
  readonly address: string;
  readonly listening: readonly ListenerAddress[];
  readonly app: FastifyInstance;
  readonly leadership: Leadership;
  readonly election: LeaderElection;
  readonly events: TermEventStream;
  reloadAuth(): void;
  /** Stops scheduling (if leading), leaves the election, stops serving. Idempotent. */
  close(): Promise<void>;
}

/**
 * pacer as one of several (`--zk zk://…/path`): the API listens at once; the process joins the
 * election under `<path>/leader` advertising `--hostname`:port; while it leads it runs the
 * scheduler (`startDuties`: store, loop, core, cluster driver) and serves the API itself; while
 * it does not, its API edge (leader-proxy.ts) answers `/ping` and forwards everything else to
 * the leader. Leadership lost (session lost or silent, abdication through `DELETE /v2/leader`)
 * stops the duties synchronously; elected again, they start again from the store. Fails (nothing
 * left open) when the flags' files cannot be used, the port is taken, or ZooKeeper cannot be
 * reached within 10 s.
 */
export async function startHa(config: PacerConfig, hooks: HaHooks = {}): Promise<RunningHaPacer> {
  if (config.zk === undefined) throw new Error('startHa needs --zk');
  const url = parseZkUrl(config.zk);
  const pacerLog = hooks.log ?? silentLog();
  const haLog = pacerLog.child({ component: 'ha' });
  const log = hooks.electionLog ?? ((line: string): void => haLog.info(line));
  const { listeners, auth } = apiEdges(config, pacerLog);
  const election = new LeaderElection({
    url, id: () => listeners.leaderAddress, log, rejoinDelayMs: hooks.rejoinDelayMs ?? 1000,
    session: { sessionTimeoutMs: config.zkSessionTimeoutMs, connectTimeoutMs: ZK_CONNECT_TIMEOUT_MS, requestTimeoutMs: ZK_REQUEST_TIMEOUT_MS },
  });
  const pacer: { running?: RunningHaPacer } = {};
  const onFatal = hooks.onFatal ?? ((error: Error): void => {
    log(`cannot lead: ${error.message}`);
    process.exitCode = 1;
    void pacer.running?.close();
  });
  const startDuties = hooks.startDuties ?? (config.cluster === 'mesos'
    ? (c: PacerConfig, h: RuntimeHooks): LeaderDuties => startMesosDuties(c, h, onFatal)
    : startLocalDuties);
  const runtimeHooks: RuntimeHooks = {
    log: pacerLog,
    ...(hooks.onCoreFailure === undefined ? {} : { onCoreFailure: hooks.onCoreFailure }),
    ...(hooks.inputs === undefined ? {} : { inputs: hooks.inputs }),
  };
  const leadership = new Leadership(election, () => listeners.leaderAddress, () => startDuties(config, runtimeHooks), onFatal);
  const clock = { nowMs: () => Date.now() };
  const events = new TermEventStream(clock);
  leadership.onTerm(events);
  const deps = haDeps(config, leadership, events, listeners);
  const app = buildServer({
    deps, stream: events, auth, serverFactory: listeners.serverFactory, log: pacerLog,
    ...(hooks.onCoreFailure === undefined ? {} : { onCoreFailure: hooks.onCoreFailure }),
    front: (a) => void a.register(leaderProxy, { leadership, scheme: listeners.scheme, ...(hooks.noLeaderWaitMs === undefined ? {} : { noLeaderWaitMs: hooks.noLeaderWaitMs }) }),
  });
  let listening: ListenerAddress[];
  try {
    listening = await listeners.listen(app);
  } catch (err) {
    auth?.close();
    throw err;
  }
  const shutdown = async (): Promise<void> => {
    leadership.stop();
    election.close();
    events.close();
    await Promise.all([app.close(), listeners.close()]);
    auth?.close();
  };
  try {
    await election.join();
  } catch (err) {
    await shutdown();
    throw new Error(`cannot join the leader election at ${describeZkUrl(url)}: ${(err as Error).message}`);
  }
  leadership.begin();
  let closing: Promise<void> | undefined;
  const running: RunningHaPacer = {
    address: listeners.leaderAddress, listening, app, leadership, election, events,
    reloadAuth: () => auth?.reload(),
    close: () => (closing ??= shutdown()),
  };
  pacer.running = running;
  return running;
}

/** Never called: Mesos duties always have driver metrics. */
function noDriverMetrics(): never {
  throw leaderProxyErrors.noCurrentLeader();
}

/**
 * The routes' deps, each reaching the current term's duties: a handler that runs after this
 * process stopped leading (its request passed the edge just before) gets the 503 of a standby
 * that knows no leader, never a stopped core.
 */
function haDeps(config: PacerConfig, leadership: Leadership, events: TermEventStream, listeners: ApiListeners): ApiDeps & { abdicate(): void } {
  const duties = (): LeaderDuties => {
    const current = leadership.current();
    if (current === undefined) throw leaderProxyErrors.noCurrentLeader();
    return current;
  };
  const startedAtMs = Date.now();
  return {
    get scheduler() {
      return duties().scheduler;
    },
    submit: (command) => duties().submit(command),
    clock: { nowMs: () => Date.now() },
    events,
    config: apiConfigOf(config, config.cluster === 'mesos' ? mesosClusterFacts(config) : localClusterFacts(config), listeners),
    frameworkId: () => leadership.current()?.frameworkId(),
    uptimeMs: () => Date.now() - startedAtMs,
    leadershipMs: () => leadership.termMs(),
    leaderAddress: () => {
      if (leadership.serving()) return leadership.self;
      const leader = leadership.leader();
      return leader === leadership.self ? undefined : leader;
    },
    abdicate: () => void leadership.abdicate(),
    ...(config.cluster === 'mesos' ? { mesosDriverMetrics: () => (duties().driverMetrics ?? noDriverMetrics)() } : {}),
  };
}
