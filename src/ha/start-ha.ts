import type { FastifyInstance } from 'fastify';
import type { ApiDeps, ZookeeperFacts } from '../api/api-deps';
import { DEFAULT_WHAT_IF_LIMITS } from '../whatif/what-if-limits';
import { DEFAULT_MAX_VERSIONS } from '../scheduler/index';
import { INLINE_MAX_BYTES, NODE_MAX_BYTES } from '../store/zk/zk-layout';
import { leaderProxyErrors } from '../api/errors';
import { buildServer } from '../api/server';
import { ZkError } from '../cluster/mesos/zk/zk-error';
import { describeZkUrl, parseZkUrl, type ZkUrl } from '../cluster/mesos/zk/zk-url';
import { durableReplies } from '../runtime/durable-replies';
import { ZkStore } from '../store/zk/zk-store';
import type { ApiListeners, ListenerAddress } from '../runtime/api-listeners';
import type { PacerConfig } from '../runtime/config';
import { silentLog } from '../runtime/pacer-log';
import { apiConfigOf, apiEdges, type RuntimeHooks } from '../runtime/runtime-parts';
import { localClusterFacts, startLocalDuties } from '../runtime/start-local';
import { mesosClusterFacts, startMesosDuties } from '../runtime/start-mesos';
import { LeaderElection, type ElectionLogLevel } from './leader-election';
import { leaderProxy } from './leader-proxy';
import { waitForStoreLock } from './store-lock-wait';
import { Leadership, type LeaderDuties } from './leadership';
import type { MarathonEvent } from '../scheduler/model/events';
import { TermEventStream } from './term-event-stream';

/** Marathon's `--zk_connection_timeout` default (ms): opening a session. */
export const ZK_CONNECT_TIMEOUT_MS = 10_000;

/** What a caller (main, tests) may change besides the runtime's hooks (log, core failure, input observer). */
export interface HaHooks extends RuntimeHooks {
  /**
   * The leader's duties (default: the ZooKeeper store at `<zk path>/state`, opened when elected,
   * then the local or Mesos cluster of `--cluster`: src/runtime/start-local.ts, start-mesos.ts).
   */
  readonly startDuties?: (config: PacerConfig, hooks: RuntimeHooks) => LeaderDuties | Promise<LeaderDuties>;
  /** Where election news goes, one line each, with its level (default: the log, component `ha`). */
  readonly electionLog?: (line: string, level?: ElectionLogLevel) => void;
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
 * the leader. Leadership lost (session lost, or silent for 0.9 of its timeout, abdication through
 * `DELETE /v2/leader`) stops the duties synchronously; elected again, they start again from the
 * store. A lease that only lapsed (silent for two thirds of the timeout: a stall) stops serving
 * requests, not the duties (leader-election.ts). Fails (nothing
 * left open) when the flags' files cannot be used, the port is taken, or ZooKeeper cannot be
 * reached within 10 s.
 */
export async function startHa(config: PacerConfig, hooks: HaHooks = {}): Promise<RunningHaPacer> {
  if (config.zk === undefined) throw new Error('startHa needs --zk');
  const url = parseZkUrl(config.zk);
  const pacerLog = hooks.log ?? silentLog();
  const haLog = pacerLog.child({ component: 'ha' });
  const log = hooks.electionLog ?? ((line: string, level: ElectionLogLevel = 'info'): void => { haLog[level](line); });
  const { listeners, auth } = apiEdges(config, pacerLog);
  const election = new LeaderElection({
    url, id: () => listeners.leaderAddress, log, rejoinDelayMs: hooks.rejoinDelayMs ?? 1000,
    session: { sessionTimeoutMs: config.zkSessionTimeoutMs, connectTimeoutMs: ZK_CONNECT_TIMEOUT_MS, requestTimeoutMs: config.zkTimeoutMs },
  });
  const pacer: { running?: RunningHaPacer } = {};
  const onFatal = hooks.onFatal ?? ((error: Error): void => {
    log(`cannot lead: ${error.message}`, 'warn');
    process.exitCode = 1;
    void pacer.running?.close();
  });
  const leading: { leadership?: Leadership; starts: number } = { starts: 0 };
  const startDuties = hooks.startDuties ?? ((c: PacerConfig, h: RuntimeHooks): Promise<LeaderDuties> => {
    const start = ++leading.starts;
    return zkDuties(c, h, {
      url, election, log, onFatal, superseded: () => leading.starts !== start, abdicate: (store) => {
        const current = leading.leadership?.current();
        if (current !== undefined && current.durability === store.durability) void leading.leadership?.abdicate();
      },
    });
  });
  const runtimeHooks: RuntimeHooks = {
    log: pacerLog,
    ...(hooks.onCoreFailure === undefined ? {} : { onCoreFailure: hooks.onCoreFailure }),
    ...(hooks.inputs === undefined ? {} : { inputs: hooks.inputs }),
  };
  const leadership = new Leadership(election, () => listeners.leaderAddress, () => startDuties(config, runtimeHooks), (error) => {
    // The ZooKeeper store could not be read (ZooKeeper went away meanwhile): another may lead.
    if (error instanceof ZkError) {
      log(`cannot lead now: ${error.message}; joining the election again`, 'warn');
      void leadership.abdicate();
    } else {
      onFatal(error);
    }
  });
  leading.leadership = leadership;
  const clock = { nowMs: () => Date.now() };
  const events = new TermEventStream(clock);
  leadership.onTerm(events);
  const deps = haDeps(config, leadership, events, listeners);
  const app = buildServer({
    deps, stream: events, auth, serverFactory: listeners.serverFactory, log: pacerLog,
    ...(hooks.onCoreFailure === undefined ? {} : { onCoreFailure: hooks.onCoreFailure }),
    front: (a) => void a.register(leaderProxy, { leadership, scheme: listeners.scheme, ...(hooks.noLeaderWaitMs === undefined ? {} : { noLeaderWaitMs: hooks.noLeaderWaitMs }) }),
  });
  durableReplies(app, () => leadership.current()?.durability);
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

/** What {@link zkDuties} needs of the composition. */
interface ZkDutiesParts {
  readonly url: ZkUrl;
  readonly election: LeaderElection;
  readonly log: (line: string, level?: ElectionLogLevel) => void;
  readonly onFatal: (error: Error) => void;
  /** Another start of the duties began since this one: this one's term is over. */
  readonly superseded: () => boolean;
  /** The term's store failed for good (session expired, fenced off): stop leading if it still is this term's. */
  readonly abdicate: (store: ZkStore) => void;
}

/**
 * The default leader duties with `--zk`: once no live process holds the lock next to `--store`
 * (store-lock-wait.ts: a paused former leader on this host still does), the ZooKeeper store under
 * `<zk path>/state`, opened (every record read) when this pacer is elected — so a new leader
 * starts from exactly what the last one made durable — fenced by this pacer's election znode (no
 * write lands once it is gone), then the local or Mesos cluster over it.
 */
async function zkDuties(config: PacerConfig, hooks: RuntimeHooks, parts: ZkDutiesParts): Promise<LeaderDuties> {
  const fence = parts.election.memberPath();
  await waitForStoreLock(`${config.storePath}.lock`, () => !parts.superseded() && parts.election.current.elected && parts.election.memberPath() === fence, parts.log);
  const started = Date.now();
  const holder: { store?: ZkStore } = {};
  const store = await ZkStore.open(stateUrlOf(parts.url), {
    sessionTimeoutMs: config.zkSessionTimeoutMs, timeoutMs: config.zkTimeoutMs, log: parts.log,
    ...(fence === undefined ? {} : { fence }),
    onFatal: (error) => {
      // Why this pacer gives its term up (a write ZooKeeper did not answer within --zk_timeout,
      // the store's session expired, its fence gone): at warn, beside `not the leader any more`.
      parts.log(error.message, 'warn');
      if (holder.store !== undefined) parts.abdicate(holder.store);
    },
  });
  holder.store = store;
  const loaded = store.load();
  parts.log(`loaded the state from ${store.where} in ${Date.now() - started} ms: ${loaded.runSpecs.length} run spec(s), ${loaded.instances.length} instance(s), ${loaded.deployments.length} deployment(s)`);
  return config.cluster === 'mesos' ? startMesosDuties(config, hooks, parts.onFatal, store) : startLocalDuties(config, hooks, store);
}

/** What `/v2/info` reports as `zookeeper_config` (the URL as given: the API hides its credentials). */
function zookeeperFacts(config: PacerConfig): ZookeeperFacts {
  return {
    zk: config.zk ?? '', compression: true, compressionThresholdBytes: INLINE_MAX_BYTES, connectionTimeoutMs: ZK_CONNECT_TIMEOUT_MS,
    maxNodeSizeBytes: NODE_MAX_BYTES, maxVersions: DEFAULT_MAX_VERSIONS, sessionTimeoutMs: config.zkSessionTimeoutMs, timeoutMs: config.zkTimeoutMs,
  };
}

/** `<zk path>/state`: where the leader keeps the state (the election is under `<zk path>/leader`). */
export function stateUrlOf(url: ZkUrl): ZkUrl {
  return { ...url, path: `${url.path === '/' ? '' : url.path}/state` };
}

/** Never called: Mesos duties always have driver metrics. */
function noDriverMetrics(): never {
  throw leaderProxyErrors.noCurrentLeader();
}

/** Duties without a recorder (a test's): answered as a standby that knows no leader would. */
function noRecording(): never {
  throw leaderProxyErrors.noCurrentLeader();
}

/** Duties without what-if (a test's): answered as a standby that knows no leader would. */
function noWhatIf(): never {
  throw leaderProxyErrors.noCurrentLeader();
}

/**
 * Subscribes `listener` to the core of the term running now, if any, and to every later term's
 * core (each term's core is new; between terms there is none); returns the unsubscribe function,
 * after which no term subscribes it again.
 */
function followTerms(leadership: Leadership, listener: (event: MarathonEvent) => void): () => void {
  let unsubscribe: (() => void) | undefined = leadership.current()?.scheduler.subscribe(listener);
  let stopped = false;
  leadership.onTerm({
    begun(duties) {
      unsubscribe?.();
      unsubscribe = stopped ? undefined : duties.scheduler.subscribe(listener);
    },
    ended() {
      unsubscribe?.();
      unsubscribe = undefined;
    },
  });
  return () => {
    stopped = true;
    unsubscribe?.();
    unsubscribe = undefined;
  };
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
    config: apiConfigOf(config, config.cluster === 'mesos' ? mesosClusterFacts(config) : localClusterFacts(config), listeners, zookeeperFacts(config)),
    frameworkId: () => leadership.current()?.frameworkId(),
    uptimeMs: () => Date.now() - startedAtMs,
    leadershipMs: () => leadership.termMs(),
    subscribeCore: (listener) => followTerms(leadership, listener),
    leaderAddress: () => {
      if (leadership.serving()) return leadership.self;
      const leader = leadership.leader();
      return leader === leadership.self ? undefined : leader;
    },
    abdicate: () => void leadership.abdicate(),
    recording: { dump: () => (duties().recording ?? noRecording()).dump() },
    whatIf: {
      limits: DEFAULT_WHAT_IF_LIMITS,
      simulate: (command, durationMs) => (duties().whatIf ?? noWhatIf()).simulate(command, durationMs),
      capacity: (id) => (duties().whatIf ?? noWhatIf()).capacity(id),
    },
    ...(config.cluster === 'mesos' ? { mesosDriverMetrics: () => (duties().driverMetrics ?? noDriverMetrics)() } : {}),
  };
}
