import type { FastifyInstance } from 'fastify';
import { hostname, userInfo } from 'node:os';
import type { MesosFrameworkFacts } from '../api/api-deps';
import { redactCredentials } from '../cluster/url-credentials';
import { detectorForMaster } from '../cluster/mesos/detector-for-master';
import { MesosCluster, type MesosClusterOptions, type MesosLogger } from '../cluster/mesos/mesos-cluster';
import type { Store, StoredState } from '../scheduler/ports/store';
import type { Scheduler } from '../scheduler/index';
import type { ListenerAddress } from './api-listeners';
import type { PacerConfig } from './config';
import { launchedInstanceCount } from './launched-instances';
import { mesosAuthentication } from './mesos-credentials';
import { silentLog, type PacerLog } from './pacer-log';
import type { LeaderDuties } from '../ha/leadership';
import { buildApi, dutiesExtras, openRuntime, serveApi, startScheduler, type BuiltApi, type ClusterFacts, type RuntimeBase, type RuntimeHooks, type Abandon } from './runtime-parts';
import type { RuntimeStore } from './runtime-store';

/** A running pacer on Mesos: the API's address and an orderly shutdown. */
export interface RunningMesosPacer {
  /** `host:port` the API listens on (the HTTPS one with `--disable_http`). */
  readonly address: string;
  /** Every listener (HTTP and/or HTTPS). */
  readonly listening: readonly ListenerAddress[];
  readonly app: FastifyInstance;
  readonly scheduler: Scheduler;
  readonly cluster: MesosCluster;
  /** Re-reads the API's credentials and tokens files (main.ts: on SIGHUP). */
  reloadAuth(): void;
  /** Stops serving and scheduling; tasks keep running on Mesos for `failover_timeout`; closes the store. */
  close(): Promise<void>;
}

/** What a caller (main, tests) may add to the configuration. */
export interface StartMesosHooks extends RuntimeHooks {
  /**
   * The driver gave up for good (ERROR from the master, foreign framework id). Default: log it,
   * close pacer and set a failing exit code (Marathon exits too).
   */
  readonly onFatal?: (error: Error, pacer: RunningMesosPacer | undefined) => void;
  /** Driver settings beyond the config (format, timings, framework name, user, logger…; the logger defaults to `log`, component `mesos`). */
  readonly driver?: Partial<Omit<MesosClusterOptions, 'detector' | 'onFatal'>>;
}

/**
 * pacer on a Mesos cluster (`--cluster mesos --master …`): the scheduler core, the SQLite store,
 * the REST API and event stream, and the Mesos v1 driver subscribed to the leading master
 * (static `http://` master, or `zk://` via ZooKeeper). Composition mirrors start-local.ts: loop →
 * ports → store → scheduler (recovers from the store, which yields the framework id) → driver
 * start → API → listen. Refuses to start (clear Error, store closed) when the store holds
 * instances but no framework id: registering a new framework would relaunch their tasks.
 */
export async function startMesos(config: PacerConfig, hooks: StartMesosHooks = {}): Promise<RunningMesosPacer> {
  const pacer: { running?: RunningMesosPacer } = {};
  const { base, cluster, scheduler, abandon } = openMesos(config, hooks, (log) => (error) => (hooks.onFatal ?? defaultOnFatal(log))(error, pacer.running));
  let api: BuiltApi;
  try {
    api = buildApi(config, base, scheduler, { ...mesosClusterFacts(config), frameworkId: () => cluster.frameworkId, driverMetrics: () => cluster.metrics });
  } catch (err) {
    abandon({ failedStart: true });
    throw err;
  }
  const { address, listening, reloadAuth, close } = await serveApi(api, base, abandon);
  const running: RunningMesosPacer = { address, listening, app: api.app, scheduler, cluster, reloadAuth, close };
  pacer.running = running;
  return running;
}

/** The Mesos cluster as `/v2/info` describes it (credentials of the master URL left out), with the framework pacer registers as. */
export function mesosClusterFacts(config: PacerConfig): Pick<ClusterFacts, 'kind' | 'master' | 'mesosFramework'> {
  return { kind: 'mesos', master: redactCredentials(config.master ?? ''), mesosFramework: mesosFrameworkOf(config) };
}

/**
 * The FrameworkInfo fields of the flags (`--framework_name`, `--mesos_user`, `--failover_timeout`):
 * what the driver subscribes with and `/v2/info` reports. The user defaults, as in Marathon, to
 * the one running pacer.
 */
export function mesosFrameworkOf(config: PacerConfig): MesosFrameworkFacts {
  return { name: config.frameworkName, user: config.mesosUser ?? userInfo().username, failoverTimeoutSeconds: config.failoverTimeoutSeconds };
}

/**
 * FrameworkInfo.hostname and webui_url, as Marathon 1.11 sets them (MarathonSchedulerDriver.scala):
 * the hostname is `--hostname`, else this machine's name (Marathon's default,
 * `InetAddress.getLocalHost.getHostName`); the web UI URL is `--webui_url`, else
 * `https://<hostname>:<--https_port>` when pacer serves HTTPS (`--ssl_cert`; Marathon: a keystore),
 * else `http://<hostname>:<--port>`. pacer's own addition: with the port 0 (chosen when the API
 * listens, after SUBSCRIBE) there is no URL to derive and none is sent.
 */
export function frameworkAddressOf(config: PacerConfig): { hostname: string; webuiUrl?: string } {
  const host = config.hostname ?? hostname();
  if (config.webuiUrl !== undefined) return { hostname: host, webuiUrl: config.webuiUrl };
  const [scheme, port] = config.sslCert !== undefined ? ['https', config.httpsPort] : ['http', config.port];
  if (port === 0) return { hostname: host };
  return { hostname: host, webuiUrl: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/**
 * What only the leader runs with `--zk --cluster mesos` (src/ha): the store (locked), the loop,
 * the core recovered from the store (with the framework id it holds), and the driver subscribed
 * to the leading master. `stop()` closes the loop first — no input reaches the core, the core
 * calls the master no more — then closes the subscription (tasks keep running on Mesos for the
 * failover timeout) and releases the store. `onFatal`: the driver gave up for good.
 */
export function startMesosDuties(config: PacerConfig, hooks: StartMesosHooks, onFatal: (error: Error) => void, store?: RuntimeStore): LeaderDuties {
  const { base, cluster, scheduler, abandon } = openMesos(config, hooks, () => onFatal, store);
  return {
    scheduler, submit: (command) => base.loop.submit(command), frameworkId: () => cluster.frameworkId, driverMetrics: () => cluster.metrics,
    ...dutiesExtras(config, base, scheduler),
    stop: () => {
      base.loop.close();
      abandon({ failedStart: false });
    },
  };
}

/** Store → loop → driver → scheduler (recovering the framework id) → SUBSCRIBE; undone on failure. */
function openMesos(
  config: PacerConfig, hooks: StartMesosHooks, fatal: (log: PacerLog) => (error: Error) => void, opened?: RuntimeStore,
): { base: RuntimeBase; cluster: MesosCluster; scheduler: Scheduler; abandon: Abandon } {
  let detector: ReturnType<typeof detectorForMaster>;
  let authentication: ReturnType<typeof mesosAuthentication>;
  try {
    detector = detectorForMaster(config.master);
    authentication = mesosAuthentication(config);
  } catch (err) {
    opened?.close();
    throw err;
  }
  const base = openRuntime(config, hooks.log ?? silentLog(), hooks.onCoreFailure, opened, hooks.storeFreeBytes);
  const recovered = { frameworkId: undefined as string | undefined };
  const store = recordingFrameworkId(base.store, recovered);
  const onFatal = fatal(base.log);
  const framework = mesosFrameworkOf(config);
  const cluster = new MesosCluster({
    detector, defaultRole: config.defaultRole, frameworkName: framework.name, user: framework.user, failoverTimeoutSeconds: framework.failoverTimeoutSeconds,
    ...frameworkAddressOf(config),
    taskKilling: config.features.includes('task_killing'),
    gpus: config.features.includes('gpu_resources'),
    ...authentication,
    logger: mesosLogger(base.log),
    ...hooks.driver,
    onFatal,
  }, (input) => base.loop.post(input));
  const abandon: Abandon = ({ failedStart }) => {
    cluster.stop();
    if (failedStart) base.discard();
    else base.release();
  };
  try {
    const scheduler = startScheduler(config, base, cluster, store, hooks.inputs);
    cluster.start({ ...recovered, launchedInstances: launchedInstanceCount(scheduler) });
    return { base, cluster, scheduler, abandon };
  } catch (err) {
    abandon({ failedStart: true });
    throw err;
  }
}

/** The store, noting the framework id `load()` returns (the core loads once, at construction). */
function recordingFrameworkId<S extends Store & { close(): void }>(store: S, into: { frameworkId: string | undefined }): S {
  const load = store.load.bind(store);
  store.load = (): StoredState => {
    const state = load();
    into.frameworkId = state.frameworkId;
    return state;
  };
  return store;
}


function defaultOnFatal(log: PacerLog): (error: Error, pacer: RunningMesosPacer | undefined) => void {
  return (error, pacer) => {
    log.error({ component: 'mesos', subscription: 'stopped' }, `the Mesos driver stopped: ${redactCredentials(error.message)}`);
    process.exitCode = 1;
    void pacer?.close();
  };
}

/** The driver's lines as records of component `mesos`; credentials in a URL never reach them. */
export function mesosLogger(log: PacerLog): MesosLogger {
  const mesos = log.child({ component: 'mesos' });
  return {
    info: (message, fields = {}) => mesos.info(fields, redactCredentials(message)),
    warn: (message, fields = {}) => mesos.warn(fields, redactCredentials(message)),
  };
}
