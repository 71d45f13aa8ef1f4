import { setMaxListeners } from 'node:events';
import * as http from 'node:http';
import * as https from 'node:https';
import { userInfo } from 'node:os';
import { AssertionError } from '../../scheduler/index';
import type { ClusterInput } from '../../scheduler/model/inputs';
import type { LaunchOperation, OfferOperation } from '../../scheduler/model/launch';
import { isReservationOperation } from '../../scheduler/model/reservation';
import type { ClusterDriver } from '../../scheduler/ports/cluster-driver';
import { encodeCall } from './codec/mesos-codec';
import type { Call, Event, EventSubscribed, FrameworkInfo, Offer as MesosOffer, TaskStatus as MesosTaskStatus } from './codec/mesos-model';
import { MEDIA_TYPES, mediaTypeOf } from './codec/media-type';
import { countLaunches, countUpdate, newDriverMetrics, type MesosDriverMetrics } from './driver-metrics';
import { masterRefusal, rolesNamed, type MasterRefusal } from './master-refusal';
import { DEFAULTS, type MesosClusterOptions, type MesosLogger, type RecoveredFramework } from './mesos-cluster-options';
import { AgentTasks } from './agent-tasks';
import { heartbeatInterval, MAX_HEARTBEAT_INTERVAL_SECONDS, MIN_HEARTBEAT_INTERVAL_SECONDS } from './heartbeat-interval';
import { RoleBook } from './role-book';
import { UnansweredCallRetry } from './unanswered-call-retry';
import { frameworkInfo } from './translate/framework-info';
import { launchesToMesos } from './translate/launch-to-mesos';
import { offerFromMesos } from './translate/offer-from-mesos';
import {
  acceptCall, acknowledgeCall, declineCall, killCall, reconcileCall, reviveCall, subscribeCall, suppressCall, updateFrameworkCall,
} from './translate/scheduler-calls';
import { statusFromMesos, unknownTaskState } from './translate/status-from-mesos';
import { uuidFromBytes } from './translate/uuid-bytes';
import { CallOutbox, heldAcrossDisconnect, type OutgoingCall } from './transport/call-outbox';
import { callAnswerVerdict } from './transport/call-answer-verdict';
import { ExponentialBackoff } from './transport/exponential-backoff';
import { leaderFromLocation } from './transport/leader-url';
import { postCall } from './transport/post-call';
import { openSubscription, type Subscription } from './transport/subscription-stream';

export type { MesosClusterOptions, MesosLogger, RecoveredFramework } from './mesos-cluster-options';
export type { MesosDriverMetrics } from './driver-metrics';

/** Where the driver is in its life. */
export type MesosClusterState = 'idle' | 'connecting' | 'subscribed' | 'stopped';

/** Explicit reconciliation is split into calls of at most this many tasks (§7.2: no paging). */
const RECONCILE_BATCH = 1000;
/** Distinct answers of a non-master (url, status, media type) remembered as said; beyond, each repeat warns again. */
const MAX_FOREIGN_ANSWERS_SAID = 16;
/** Offer ids a warning about repeated offers names, at most (the rest are counted). */
const MAX_REPEATED_OFFERS_NAMED = 5;
/** Distinct unknown task states warned about, at most (the values come from the master). */
export const MAX_WARNED_STATES = 16;

const STDERR_LOGGER: MesosLogger = {
  info: (message) => process.stderr.write(`[mesos] ${message}\n`),
  warn: (message) => process.stderr.write(`[mesos] WARN ${message}\n`),
};

/**
 * The Mesos v1 scheduler driver: a {@link ClusterDriver} speaking the HTTP scheduler API
 * (mesos-v1-scheduler-api.md, § numbers below) to the leading master.
 *
 * Subscription: the leader comes from the {@link MasterDetector}; SUBSCRIBE streams RecordIO
 * events (§1.3, §1.4) in `format` (protobuf by default); 307 answers are followed to the leader
 * (§1.9, at most `maxRedirects` in a row). Every (re)subscription carries the stored framework id
 * in both places and `failover_timeout` (§1.8), so a pacer restart or master failover never
 * relaunches running tasks; it restates the roles and the suppressed roles. Each SUBSCRIBED posts
 * `{type:'subscribed', frameworkId}` (the core saves the id and reconciles every known task, §7.7);
 * losing the subscription posts `{type:'disconnected'}`.
 *
 * Faults are events, never exceptions: a refused connection, a cut stream, a malformed frame or
 * record, a 4xx/5xx answer or missing heartbeats (no event for `heartbeatFailureThreshold` ×
 * the interval, §1.7) drop the connection and resubscribe after a bounded exponential backoff,
 * which starts over only once a subscription has proved healthy (an event after its first
 * HEARTBEAT), so a master that refuses right after SUBSCRIBED is retried ever more slowly.
 * An ERROR event is classified (master-refusal.ts, §3.9): what resubscribing cannot fix — the
 * framework removed, failed over to another scheduler, roles outside the master's `--roles`, not
 * authorized — stops the driver and calls `onFatal` with an explanation for the operator (do not
 * fight it); a transient one (the authorizer failed) is retried with backoff; an unknown one too,
 * at most `maxConsecutiveErrors` times in a row. A refusal (ERROR, or a refused UPDATE_FRAMEWORK)
 * naming some of the framework's roles — outside `--roles`, or not authorized — is not final: the
 * driver names those roles, stops asking for them and carries on with the others
 * (`leaveRefusedRoles`); only a refusal of all of them is final. So is a framework id that differs from the one resubscribed with, and
 * `start` refuses to register a NEW framework id while instances exist (Marathon 1.7's rule: their
 * tasks would be orphaned and relaunched).
 *
 * Calls go on keep-alive connections separate from the stream, with the `Mesos-Stream-Id` (§1.5),
 * up to `maxConcurrentCalls` at once, each with the call timeout: one the master never answers
 * holds up only the calls that must stay in order behind it — those about the same task or offer,
 * and the role calls (REVIVE, SUPPRESS, UPDATE_FRAMEWORK) — which are sent each once the one
 * before was answered (transport/call-outbox.ts, call-order-keys.ts). While disconnected, KILL and ACKNOWLEDGE are held (bounded) and sent
 * after resubscribing; ACCEPT is dropped and its tasks reported TASK_DROPPED
 * (REASON_INVALID_OFFERS, as Mesos reports an ACCEPT of a dead offer, §3.4, §7.3); DECLINE and
 * RECONCILE are dropped (offers die with the subscription; the core reconciles on `subscribed`).
 * A call that got no answer at all (network fault, timeout: the master may or may not have
 * processed it) is sent again after a backoff when repeating it is harmless (KILL, ACKNOWLEDGE,
 * RECONCILE, REVIVE, SUPPRESS, UPDATE_FRAMEWORK), at most `maxCallRetries` times; an ACCEPT never
 * is (its offer may have been used): its tasks are reconciled at once (`reconcileUnanswered`).
 * Calls still in flight when the subscription is lost are given up at once (`callsAbort`), KILL
 * and ACKNOWLEDGE among them held for the next subscription, so none holds up its calls.
 * Resident instances: an ACCEPT carries their RESERVE, CREATE, DESTROY and UNRESERVE operations
 * with the framework's principal and Marathon's reservation labels (translate/
 * reservation-to-mesos.ts), and offers are read with this framework's labelled reservations and
 * persistent volumes as pools of their own (translate/offer-from-mesos.ts), so an instance
 * relaunches on its own reservation and volume.
 * Raw Mesos offers are kept by id until accepted, declined or rescinded: ACCEPT copies their
 * resources (translate/launch-to-mesos.ts). They die with the subscription: after a master
 * failover (or any reconnection) an ACCEPT of an older offer is never sent; its tasks are reported
 * TASK_DROPPED, so no offer is used twice.
 *
 * `metrics` counts what the driver does (driver-metrics.ts), for `/metrics`.
 */
export class MesosCluster implements ClusterDriver {
  private lifecycle: MesosClusterState = 'idle';
  /** Bumped on every connection attempt and loss: callbacks of older attempts are ignored. */
  private generation = 0;
  private subscription: Subscription | undefined;
  private leaderUrl: string | undefined;
  private streamId: string | undefined;
  private framework: string | undefined;
  /** The roles the master was last told (SUBSCRIBE or UPDATE_FRAMEWORK). */
  private subscribedRoles: readonly string[] = [];
  private redirects = 0;
  private heartbeatIntervalMs: number = DEFAULTS.heartbeatIntervalSeconds * 1000;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private watchdogTimer: NodeJS.Timeout | undefined;
  private deferredTimer: NodeJS.Immediate | undefined;
  private deferred: ClusterInput[] = [];
  private readonly offers = new Map<string, MesosOffer>();
  /** Task states pacer does not know that it warned about (`onUnknownState`). */
  private readonly warnedStates = new Set<string>();
  /** Tasks per agent, to reconcile them when a FAILURE reports their agent lost. */
  private readonly agentTasks = new AgentTasks();
  private readonly roleBook: RoleBook;
  private readonly outbox: CallOutbox;
  /** Calls waiting while subscribed beyond which the oldest KILL and ACKNOWLEDGE are dropped (MesosClusterOptions.maxQueuedCalls). */
  private readonly maxQueuedCalls: number;
  private readonly backoff: ExponentialBackoff;
  /**
   * Aborts the calls in flight on the current subscription when it is lost: the master they went to
   * may be gone or partitioned, and each would otherwise keep its place and order keys in the outbox
   * until its timeout, holding up the next subscription's calls (dropConnection).
   */
  private callsAbort = callsAbortController();
  /** Keep-alive connections for calls, as many as calls may be in flight (the outbox's bound), so none queues in the agent. */
  private readonly agents: { readonly http: http.Agent; readonly https: https.Agent };
  private readonly log: MesosLogger;
  private readonly format;
  /** ERROR events of unknown meaning since the last healthy subscription. */
  private unknownErrorStreak = 0;
  /**
   * Answers from something that is not a Mesos master (`url status media-type`) already warned
   * about since the last SUBSCRIBED: a repeat is retried without a new warning.
   */
  private readonly foreignAnswersSaid = new Set<string>();
  /** The detector's trouble last warned about since the last SUBSCRIBED (`onDetectorTrouble`). */
  private detectorTroubleSaid: string | undefined;
  /** Events since the last SUBSCRIBED: the second one shows the subscription is healthy. */
  private eventsSinceSubscribed = 0;
  private readonly unanswered: UnansweredCallRetry;
  /** What the driver counted so far (read by the API's metrics). */
  readonly metrics: MesosDriverMetrics = newDriverMetrics();
  /** `Authorization` of every request to the master, when the framework authenticates (§1.1). */
  private readonly authorization: string | undefined;

  constructor(private readonly options: MesosClusterOptions, private readonly post: (input: ClusterInput) => void) {
    this.format = options.format ?? DEFAULTS.format;
    this.roleBook = new RoleBook(options.defaultRole ?? DEFAULTS.defaultRole);
    const maxInFlight = options.maxConcurrentCalls ?? DEFAULTS.maxConcurrentCalls;
    this.maxQueuedCalls = options.maxQueuedCalls ?? DEFAULTS.maxQueuedCalls;
    this.outbox = new CallOutbox(options.maxHeldCalls ?? DEFAULTS.maxHeldCalls, maxInFlight, this.maxQueuedCalls);
    this.agents = { http: new http.Agent({ keepAlive: true, maxSockets: maxInFlight }), https: new https.Agent({ keepAlive: true, maxSockets: maxInFlight }) };
    this.backoff = new ExponentialBackoff(options.backoffInitialMs ?? DEFAULTS.backoffInitialMs, options.backoffMaxMs ?? DEFAULTS.backoffMaxMs);
    this.log = options.logger ?? STDERR_LOGGER;
    this.unanswered = new UnansweredCallRetry(options.callRetryInitialMs ?? DEFAULTS.callRetryInitialMs, options.maxCallRetries ?? DEFAULTS.maxCallRetries, (again) => {
      this.metrics.retriedCalls++;
      this.send(again);
    });
    const c = options.credentials;
    this.authorization = c === undefined ? undefined : `Basic ${Buffer.from(`${c.principal}:${c.secret}`, 'utf8').toString('base64')}`;
  }

  /** The framework id: the recovered one, then the one the master confirmed. */
  get frameworkId(): string | undefined {
    return this.framework;
  }

  /** Where the driver is: idle (not started), connecting, subscribed, stopped. */
  /** Roles the master refused; pacer no longer asks for them (see `leaveRefusedRoles`). */
  get refusedRoles(): readonly string[] {
    return this.roleBook.refusedRoles;
  }

  get state(): MesosClusterState {
    return this.lifecycle;
  }

  private setLifecycle(state: MesosClusterState): void {
    this.lifecycle = state;
    this.metrics.state = state;
  }

  /** The leading master's base URL last subscribed to (or being tried). */
  get leader(): string | undefined {
    return this.leaderUrl;
  }

  /**
   * Starts subscribing (asynchronously; progress arrives as inputs). Throws, before any network
   * traffic, when there is no stored framework id but instances that were launched exist:
   * registering a new framework would orphan their tasks and relaunch them (Marathon 1.7 refuses
   * to start too). Instances never launched have no task to orphan and do not stop it.
   */
  start(recovered: RecoveredFramework): void {
    if (this.lifecycle !== 'idle') return;
    if (recovered.frameworkId === undefined && recovered.launchedInstances > 0) {
      throw new Error(
        `refusing to register a new Mesos framework: the store has ${recovered.launchedInstances} launched instance(s) but no framework id; ` +
        'their tasks would be orphaned and launched again. Restore the store that holds the framework id.',
      );
    }
    this.framework = recovered.frameworkId;
    this.options.detector.onChange?.((leaderUrl) => this.onLeaderElected(leaderUrl));
    this.options.detector.onTrouble?.((message) => this.onDetectorTrouble(message));
    this.connect();
  }

  /** Stops for good: closes the stream and the call connections; clears every timer. No input is posted afterwards. */
  stop(): void {
    if (this.lifecycle === 'stopped') return;
    this.setLifecycle('stopped');
    this.generation++;
    this.subscription?.close();
    this.subscription = undefined;
    this.clearTimers();
    this.unanswered.clear();
    if (this.deferredTimer !== undefined) clearImmediate(this.deferredTimer);
    this.deferredTimer = undefined;
    this.outbox.clear();
    this.callsAbort.abort();
    this.offers.clear();
    this.agentTasks.clear();
    this.deferred = [];
    this.agents.http.destroy();
    this.agents.https.destroy();
    this.options.detector.close();
  }

  // ---------------------------------------------------------------- ClusterDriver

  accept(offerId: string, operations: readonly OfferOperation[], refuseMs: number): void {
    const launches = operations.filter((op): op is LaunchOperation => !isReservationOperation(op));
    const offer = this.offers.get(offerId);
    const frameworkId = this.framework;
    if (this.lifecycle !== 'subscribed' || offer === undefined || frameworkId === undefined) {
      this.dropLaunches(launches, `offer ${offerId} is no longer valid`);
      return;
    }
    let call: Call;
    try {
      const principal = this.principal();
      call = acceptCall(frameworkId, offerId, launchesToMesos(operations, { frameworkId, offer, ...(principal === undefined ? {} : { principal }) }), refuseMs);
    } catch (err) {
      this.log.warn(`cannot translate the operations on offer ${offerId}: ${(err as Error).message}`);
      this.dropLaunches(launches, `launch could not be translated: ${(err as Error).message}`, 'TASK_ERROR', 'REASON_TASK_INVALID');
      this.decline([offerId], 0);
      return;
    }
    this.offers.delete(offerId);
    countLaunches(this.metrics, launches);
    for (const task of launchedTasks(launches)) this.agentTasks.add(task.taskId, task.agentId);
    this.send({
      call,
      dropped: () => this.dropLaunches(launches, `the ACCEPT of offer ${offerId} did not take effect (the offer died before it was sent, or the master refused it)`),
      unanswered: (what) => this.reconcileUnanswered(launches, what),
    });
  }

  /**
   * An ACCEPT that got no answer (its call timeout passed, or the connection failed): the master
   * may or may not have launched its tasks, so it is never sent again (its offer may have been
   * used) nor reported dropped (they may run); its tasks are reconciled at once, with their agent,
   * and the master's answers settle them (TASK_STAGING or later if launched; TASK_GONE, §7.2, if
   * not: the core places the instance again), instead of at the next periodic reconciliation.
   * Marathon 1.11 has no answer to wait for (libmesos sends ACCEPT as a message); a launch it never
   * hears of stays Provisioned until its `--task_launch_confirm_timeout` (OverdueInstancesActor).
   */
  private reconcileUnanswered(launches: readonly LaunchOperation[], what: string): void {
    const tasks = launchedTasks(launches);
    this.log.warn(`${what}; reconciling its ${tasks.length} task(s): it may or may not have launched them`);
    if (tasks.length > 0) this.reconcile(tasks);
  }

  /** The framework's principal (`--mesos_authentication_principal` or the credentials'), if any. */
  private principal(): string | undefined {
    return this.options.principal ?? this.options.credentials?.principal;
  }

  decline(offerIds: readonly string[], refuseMs: number): void {
    const known = offerIds.filter((id) => this.offers.delete(id));
    if (known.length === 0 || this.framework === undefined) return;
    this.metrics.offersDeclined += known.length;
    this.send({ call: declineCall(this.framework, known, refuseMs) });
  }

  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    if (this.framework === undefined) return;
    this.send({ call: killCall(this.framework, taskId, agentId, gracePeriodMs) });
  }

  acknowledge(agentId: string, taskId: string, uuid: string): void {
    if (this.framework === undefined) return;
    try {
      this.send({ call: acknowledgeCall(this.framework, agentId, taskId, uuid) });
    } catch (err) {
      this.log.warn(`not acknowledging ${taskId}: ${(err as Error).message}`);
    }
  }

  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    if (this.framework === undefined || this.lifecycle !== 'subscribed') return;
    if (tasks.length === 0) {
      this.send({ call: reconcileCall(this.framework, []) });
      return;
    }
    for (let i = 0; i < tasks.length; i += RECONCILE_BATCH) {
      this.send({ call: reconcileCall(this.framework, tasks.slice(i, i + RECONCILE_BATCH)) });
    }
  }

  revive(roles: readonly string[]): void {
    this.roleBook.revive(roles);
    this.metrics.revives++;
    this.sendRoleCall(roles, reviveCall);
  }

  suppress(roles: readonly string[]): void {
    this.roleBook.suppress(roles);
    this.metrics.suppresses++;
    this.sendRoleCall(roles, suppressCall);
  }

  /** UPDATE_FRAMEWORK when the whole set of roles changed (§2.13); restated on the next SUBSCRIBE anyway. */
  updateFrameworkRoles(roles: readonly string[]): void {
    if (!this.roleBook.setRoles(roles)) return;
    if (this.lifecycle === 'subscribed') this.sendUpdateFramework();
  }

  // ---------------------------------------------------------------- subscription

  private connect(): void {
    const gen = ++this.generation;
    this.setLifecycle('connecting');
    this.redirects = 0;
    this.options.detector.leader().then(
      (baseUrl) => { if (gen === this.generation) this.attempt(baseUrl); },
      (err: unknown) => { if (gen === this.generation) this.retryLater(`no leading master: ${(err as Error).message}`); },
    );
  }

  /** One SUBSCRIBE to `baseUrl`, watched by the subscribe timeout until SUBSCRIBED. */
  private attempt(baseUrl: string): void {
    const gen = ++this.generation;
    this.leaderUrl = baseUrl;
    this.streamId = undefined;
    const info = this.info();
    this.subscribedRoles = info.roles ?? [];
    let body: Uint8Array;
    try {
      body = encodeCall(subscribeCall(info, this.roleBook.suppressedWithin(this.subscribedRoles)), this.format);
    } catch (err) {
      this.fatal(new Error(`cannot encode SUBSCRIBE: ${(err as Error).message}`));
      return;
    }
    this.armWatchdog(this.options.subscribeTimeoutMs ?? DEFAULTS.subscribeTimeoutMs, gen, 'no SUBSCRIBED');
    const auth = this.authorization === undefined ? {} : { authorization: this.authorization };
    this.subscription = openSubscription({ baseUrl, body, format: this.format, ...auth }, {
      opened: (streamId) => { if (gen === this.generation) this.streamId = streamId; },
      event: (event) => { if (gen === this.generation) this.onEvent(event, gen); },
      redirected: (location) => { if (gen === this.generation) this.onRedirect(baseUrl, location); },
      refused: (status, text) => {
        if (gen !== this.generation) return;
        if (status === 401) this.fatal(this.unauthorized(baseUrl));
        else this.retryLater(`SUBSCRIBE to ${baseUrl} answered ${status}${answerText(text)}`);
      },
      foreign: (status, contentType) => { if (gen === this.generation) this.onForeignAnswer(baseUrl, status, contentType); },
      closed: (reason) => { if (gen === this.generation) this.lost(`${baseUrl}: ${reason}`); },
    });
  }

  /**
   * SUBSCRIBE got an answer no Mesos master gives (subscription-stream.ts `foreign`): the URL names
   * some other HTTP service. Retried like any refusal (a master may come up there), but the
   * warning says what answered and is said once per distinct answer until a subscription succeeds.
   */
  private onForeignAnswer(baseUrl: string, status: number, contentType: string | undefined): void {
    const type = contentType === undefined ? 'no Content-Type' : `Content-Type ${mediaTypeOf(contentType)}`;
    const key = `${baseUrl} ${status} ${type}`;
    const said = this.foreignAnswersSaid.has(key);
    if (!said && this.foreignAnswersSaid.size < MAX_FOREIGN_ANSWERS_SAID) this.foreignAnswersSaid.add(key);
    const what = status === 200 ? `200 with ${type}, not an event stream` : `${status} with ${type}`;
    this.retryLater(
      `SUBSCRIBE to ${baseUrl} answered ${what}: this does not look like a Mesos master (a master answers 200 with a Mesos-Stream-Id ` +
      'and an event stream, or an error as plain text); check that the URL names a Mesos master. Retrying with backoff; ' +
      'this warning is not repeated while the answer stays the same',
      said,
    );
  }

  /** The detector saw a new leading master: leave the old one (its offers die with the stream) and subscribe there. */
  private onLeaderElected(leaderUrl: string): void {
    if (this.lifecycle !== 'subscribed' || leaderUrl === this.leaderUrl) return;
    this.lost(`a new leading master was elected: ${leaderUrl} (was ${this.leaderUrl ?? '?'})`);
  }

  /**
   * The detector, reading the election on its own (a ZooKeeper watch fired), found no usable
   * leader: the masters' group empty, a leader's MasterInfo that does not parse, ZooKeeper gone.
   * While subscribed, nothing else would say so (the stream of the master pacer is on still runs,
   * and pacer stays on it until it ends or a new leader is found): one warning per distinct cause
   * until the next subscription. Not subscribed, the driver's own `leader()` calls say it.
   */
  private onDetectorTrouble(message: string): void {
    if (this.lifecycle !== 'subscribed' || this.detectorTroubleSaid === message) return;
    this.detectorTroubleSaid = message;
    this.log.warn(`the master detector finds no usable leading master (${message}); staying subscribed to ${this.leaderUrl ?? '?'} while its stream lasts`);
  }

  /** A 401 to SUBSCRIBE: the master authenticates frameworks and did not accept ours (never retried). */
  private unauthorized(baseUrl: string): Error {
    const principal = this.options.credentials?.principal;
    return new Error(principal === undefined
      ? `the Mesos master at ${baseUrl} requires framework authentication (401 Unauthorized): set --mesos_authentication_principal and --mesos_authentication_secret_file`
      : `the Mesos master at ${baseUrl} refused the credentials of principal '${principal}' (401 Unauthorized): check --mesos_authentication_principal and --mesos_authentication_secret_file`);
  }

  private onRedirect(askedUrl: string, location: string | undefined): void {
    const target = leaderFromLocation(askedUrl, location);
    const maxRedirects = this.options.maxRedirects ?? DEFAULTS.maxRedirects;
    if (target === undefined || this.redirects >= maxRedirects) {
      this.retryLater(`${askedUrl} is not the leader (307, Location ${JSON.stringify(location)}); ${this.redirects} redirect(s) followed`);
      return;
    }
    this.redirects++;
    this.log.info(`${askedUrl} is not the leading master; following the redirect to ${target}`);
    this.attempt(target);
  }

  /** The subscription (or the attempt) is gone: tell the core if it was up, then retry. */
  private lost(reason: string): void {
    if (this.lifecycle === 'stopped') return;
    const wasSubscribed = this.lifecycle === 'subscribed';
    this.dropConnection();
    if (wasSubscribed) this.post({ type: 'disconnected' });
    this.retryLater(reason);
  }

  /** Drops the connection and subscribes again after the backoff; `quiet`: without a warning (one was said for this cause). */
  private retryLater(reason: string, quiet = false): void {
    if (this.lifecycle === 'stopped') return;
    if (this.lifecycle === 'subscribed') {
      this.lost(reason);
      return;
    }
    this.dropConnection();
    this.setLifecycle('connecting');
    this.metrics.reconnects++;
    const delayMs = this.backoff.next();
    if (!quiet) this.log.warn(`${reason}; resubscribing in ${delayMs} ms`, { subscription: 'resubscribing', retryInMs: delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, delayMs);
  }

  /** Closes the stream, forgets offers and the stream id, holds or drops queued calls. */
  private dropConnection(): void {
    this.generation++;
    this.callsAbort.abort();
    this.callsAbort = callsAbortController();
    this.subscription?.close();
    this.subscription = undefined;
    this.streamId = undefined;
    this.setLifecycle('connecting');
    this.clearTimers();
    this.offers.clear();
    this.outbox.close();
  }

  /**
   * Gives up for good: stops, then hands the error to `onFatal`, whose owner says it (pacer logs
   * one `error` record and exits, or HA's `cannot lead`); the driver logs it itself only when no
   * one takes it, so that the operator reads the reason once, not twice.
   */
  private fatal(error: Error): void {
    if (this.lifecycle === 'stopped') return;
    const wasSubscribed = this.lifecycle === 'subscribed';
    this.stop();
    if (wasSubscribed) this.post({ type: 'disconnected' });
    const onFatal = this.options.onFatal;
    if (onFatal === undefined) this.log.warn(`giving up: ${error.message}`, { subscription: 'stopped' });
    else onFatal(error);
  }

  private armWatchdog(timeoutMs: number, gen: number, what: string): void {
    if (this.watchdogTimer !== undefined) clearTimeout(this.watchdogTimer);
    this.watchdogTimer = setTimeout(() => {
      this.watchdogTimer = undefined;
      if (gen === this.generation) this.lost(`${what} within ${timeoutMs} ms`);
    }, timeoutMs);
  }

  /** Connection timers; the deferred-input turn survives a reconnect (only `stop` clears it). */
  private clearTimers(): void {
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    if (this.watchdogTimer !== undefined) clearTimeout(this.watchdogTimer);
    this.reconnectTimer = undefined;
    this.watchdogTimer = undefined;
  }

  // ---------------------------------------------------------------- events

  private onEvent(event: Event, gen: number): void {
    if (event.type === 'SUBSCRIBED' && event.subscribed !== undefined) {
      this.onSubscribed(event.subscribed, gen);
      return;
    }
    if (event.type === 'ERROR') {
      this.onMasterError(event.error?.message ?? '');
      return;
    }
    if (this.lifecycle !== 'subscribed') return;
    this.armHeartbeatWatchdog(gen);
    if (++this.eventsSinceSubscribed === 2) this.provedHealthy();
    try {
      this.dispatch(event);
    } catch (err) {
      // An event the driver cannot translate is its own fault: logged, the stream goes on. The
      // core is never run from here (the loop takes inputs up on a later turn); should a failure
      // of the core surface here anyway, it is not the driver's to swallow.
      if (err instanceof AssertionError) throw err;
      this.log.warn(`failed to handle a ${event.type} event: ${(err as Error).stack ?? String(err)}`);
    }
  }

  private dispatch(event: Event): void {
    switch (event.type) {
      case 'OFFERS':
        this.onOffers(event.offers?.offers ?? []);
        return;
      case 'RESCIND':
        if (event.rescind !== undefined) this.onRescind(event.rescind.offerId.value);
        return;
      case 'UPDATE':
        if (event.update !== undefined) this.onUpdate(event.update.status);
        return;
      case 'FAILURE':
        // Only agent_id: the agent was removed or is unreachable; with executor_id: an executor
        // ended, which the tasks' own updates report (§3.8).
        if (event.failure?.agentId !== undefined && event.failure.executorId === undefined) this.onAgentLost(event.failure.agentId.value);
        return;
      case 'HEARTBEAT':
        this.metrics.lastHeartbeatAtMs = Date.now();
        return;
      default:
        this.log.info(`ignoring a ${event.type} event`);
    }
  }

  /**
   * A RESCIND (§3.4): the offer is gone. An ACCEPT of it still queued unsent (behind calls it must
   * follow, or with every place in flight taken) is taken back and its launches reported
   * TASK_DROPPED (REASON_INVALID_OFFERS, as a master failover drops them) on a later turn, so the
   * core places them again on another offer; sent, the master would answer it the same way, but
   * with updates that carry no uuid and are lost if the subscription drops (§7.1). An ACCEPT
   * already in flight is the master's to answer: its TASK_DROPPED (or TASK_LOST) updates reach the
   * core as any update. Either way each launch is reported dropped once.
   */
  private onRescind(offerId: string): void {
    this.metrics.offersRescinded++;
    this.offers.delete(offerId);
    const withdrawn = this.outbox.withdraw((call) => call.type === 'ACCEPT' && (call.accept?.offerIds ?? []).some((id) => id.value === offerId));
    if (withdrawn > 0) this.log.info(`offer ${offerId} was rescinded before its ACCEPT was sent: its launches are reported dropped`);
    this.post({ type: 'rescind', offerId });
  }

  /**
   * A FAILURE naming only an agent: it was marked unreachable or removed. Its tasks' updates may
   * not come — after a master failover the new master never knew them and sends only this event
   * (§7.2, §7.4) — so the tasks pacer knows there are reconciled at once, with the agent id (the
   * master answers TASK_UNREACHABLE, TASK_GONE…), instead of at the next periodic reconciliation.
   * Marathon 1.11 only logs it (MarathonScheduler.slaveLost); this does better with no change to
   * the core, which also learns the agent is lost (its kept offers of the agent are void).
   */
  private onAgentLost(agentId: string): void {
    const tasks = this.agentTasks.take(agentId);
    if (tasks.length > 0) {
      this.log.info(`agent ${agentId} lost (FAILURE): reconciling its ${tasks.length} task(s)`);
      this.reconcile(tasks.map((taskId) => ({ taskId, agentId })));
    }
    this.post({ type: 'agentLost', agentId });
  }

  /** A status update for the core, unless its state is one pacer does not know (`onUnknownState`). */
  private onUpdate(mesosStatus: MesosTaskStatus): void {
    const unknown = unknownTaskState(mesosStatus);
    if (unknown !== undefined) {
      this.onUnknownState(mesosStatus, unknown);
      return;
    }
    const status = statusFromMesos(mesosStatus);
    countUpdate(this.metrics, status.state);
    this.agentTasks.updated(status.taskId, status.agentId, status.state);
    this.post({ type: 'status', status });
  }

  /**
   * An UPDATE whose TaskState this pacer's protobuf does not declare (a newer Mesos; it gates new
   * states behind framework capabilities, so this should not happen). Whether the task still runs
   * is unknown, so pacer neither replaces nor kills it: the core is not told, the task keeps its
   * last known state, and its next known update, or the periodic reconciliation, settles it. The
   * update is acknowledged when it has a uuid, or the agent would resend it and hold the task's
   * later updates back behind it (§7.1). One warning per unknown state (at most
   * `MAX_WARNED_STATES` of them), since the agent or reconciliation may repeat it for every task.
   * Marathon 1.11 never sees such an update at all: its libmesos driver cannot decode a TaskStatus
   * whose required state it does not know, and its TaskCondition has no case for one (followed
   * here, but acknowledging, which Marathon cannot).
   */
  private onUnknownState(mesosStatus: MesosTaskStatus, state: string): void {
    this.metrics.updates++;
    const taskId = mesosStatus.taskId.value;
    if (!this.warnedStates.has(state) && this.warnedStates.size < MAX_WARNED_STATES) {
      this.warnedStates.add(state);
      this.log.warn(`unknown Mesos task state ${state} in an update of task ${taskId} (a newer Mesos?): acknowledged and ignored; the task keeps its last known state until a known update or reconciliation (said once per state)`);
    }
    const uuid = mesosStatus.uuid;
    if (uuid !== undefined && uuid.byteLength > 0 && mesosStatus.agentId !== undefined) this.acknowledge(mesosStatus.agentId.value, taskId, uuidFromBytes(uuid));
  }

  /**
   * An ERROR event (§3.9): the master closes the stream after it. Final refusals stop the driver
   * with the explanation; others resubscribe with backoff, unknown ones at most
   * `maxConsecutiveErrors` times in a row.
   */
  private onMasterError(message: string): void {
    this.metrics.errors++;
    const refusal = masterRefusal(message);
    const what = `the Mesos master sent ERROR: ${refusal.explanation}`;
    if (this.leaveRefusedRoles(refusal, message)) {
      this.lost(what); // resubscribes (with backoff) without them
      return;
    }
    if (refusal.kind === 'final') {
      this.fatal(new Error(what));
      return;
    }
    const maxErrors = this.options.maxConsecutiveErrors ?? DEFAULTS.maxConsecutiveErrors;
    if (refusal.kind === 'unknown' && ++this.unknownErrorStreak >= maxErrors) {
      this.fatal(new Error(`${what} (${this.unknownErrorStreak} such errors in a row; giving up)`));
      return;
    }
    this.lost(what);
  }

  /**
   * A refusal of some of the framework's roles (outside the master's `--roles`, or not authorized
   * for them) that leaves others: pacer says which roles, stops asking for them (their apps and
   * pods get no offers until the master allows them and pacer restarts) and carries on with the
   * rest, instead of resubscribing with them in a loop or stopping everything. False when the
   * refusal names no role pacer asks for, or every one of them (then it is final as before).
   */
  private leaveRefusedRoles(refusal: MasterRefusal, message: string): boolean {
    if (refusal.kind !== 'final' || (refusal.cause !== 'roles-refused' && refusal.cause !== 'unauthorized')) return false;
    const named = rolesNamed(message);
    const remaining = this.roleBook.roles.filter((r) => !named.includes(r));
    if (remaining.length === 0 || remaining.length === this.roleBook.roles.length) return false;
    const left = this.roleBook.refuse(named);
    this.log.warn(
      `the Mesos master refuses the role(s) ${left.join(', ')} (${message.trim()}): pacer no longer subscribes to them, so apps and pods ` +
      `of these roles get no offers; it carries on with ${remaining.join(', ')}. ${refusal.explanation}`,
    );
    return true;
  }

  /** The subscription delivered an event after its first HEARTBEAT: back-off and error streak start over. */
  private provedHealthy(): void {
    this.backoff.reset();
    this.unknownErrorStreak = 0;
  }

  private onSubscribed(subscribed: EventSubscribed, gen: number): void {
    const id = subscribed.frameworkId.value;
    const asked = this.framework;
    if (asked !== undefined && id !== asked) {
      this.fatal(new Error(`the master assigned framework id ${id} instead of ${asked}; refusing to continue (tasks of ${asked} would be orphaned)`));
      return;
    }
    this.framework = id;
    this.setLifecycle('subscribed');
    this.metrics.subscriptions++;
    this.foreignAnswersSaid.clear();
    this.detectorTroubleSaid = undefined;
    this.eventsSinceSubscribed = 0;
    this.redirects = 0;
    const interval = heartbeatInterval(subscribed.heartbeatIntervalSeconds, DEFAULTS.heartbeatIntervalSeconds);
    this.heartbeatIntervalMs = interval.seconds * 1000;
    if (interval.refused !== undefined) {
      this.log.warn(
        `the master's SUBSCRIBED gives heartbeat_interval_seconds ${interval.refused}, outside ${MIN_HEARTBEAT_INTERVAL_SECONDS} to ` +
        `${MAX_HEARTBEAT_INTERVAL_SECONDS} s: the heartbeat watchdog takes ${interval.seconds} s instead`,
      );
    }
    this.armHeartbeatWatchdog(gen);
    this.offers.clear();
    const master = subscribed.masterInfo?.id === undefined ? '' : ` (master ${subscribed.masterInfo.id})`;
    this.log.info(`subscribed to ${this.leaderUrl ?? '?'} as framework ${id}${master}`, { subscription: 'subscribed', frameworkId: id });
    this.outbox.open((item) => this.sendNow(item, gen));
    const rolesChanged = this.subscribedRoles.join('\n') !== this.roleBook.roles.join('\n');
    if (rolesChanged) this.sendUpdateFramework();
    this.post({ type: 'subscribed', frameworkId: id });
  }

  private armHeartbeatWatchdog(gen: number): void {
    const threshold = this.options.heartbeatFailureThreshold ?? DEFAULTS.heartbeatFailureThreshold;
    this.armWatchdog(this.heartbeatIntervalMs * threshold, gen, 'no event (heartbeat)');
  }

  /**
   * An OFFERS event: each offer read (translate/offer-from-mesos.ts) and kept for its ACCEPT, or
   * declined when it cannot be read. An offer whose id the driver already holds — sent twice in the
   * event or again in a later one — is ignored with one warning per event: a master offers each id
   * once (§2.3: an id can be used by one ACCEPT only), so the core, offered it twice, placed
   * instances on both copies and the second ACCEPT was never sent, its launches reported
   * TASK_DROPPED and delayed by the launch backoff (Marathon would send both; the master drops the second).
   */
  private onOffers(offers: readonly MesosOffer[]): void {
    this.metrics.offersReceived += offers.length;
    const translated = [];
    const seen = new Set<string>();
    const repeated: string[] = [];
    for (const offer of offers) {
      const id = offer.id.value;
      if (this.offers.has(id) || seen.has(id)) {
        repeated.push(id);
        continue;
      }
      seen.add(id);
      try {
        translated.push(offerFromMesos(offer, this.framework));
        this.offers.set(offer.id.value, offer);
      } catch (err) {
        this.log.warn(`declining offer ${offer.id.value}, which cannot be read: ${(err as Error).message}`);
        if (this.framework === undefined) continue;
        this.metrics.offersDeclined++;
        this.send({ call: declineCall(this.framework, [offer.id.value], 0) });
      }
    }
    if (repeated.length > 0) {
      const named = repeated.slice(0, MAX_REPEATED_OFFERS_NAMED).join(', ') + (repeated.length > MAX_REPEATED_OFFERS_NAMED ? ', …' : '');
      this.log.warn(`ignoring ${repeated.length} offer(s) whose id pacer already holds (${named}): the master offered the same id again`);
    }
    if (translated.length > 0) this.post({ type: 'offers', offers: translated });
  }

  // ---------------------------------------------------------------- calls

  private info(): FrameworkInfo {
    const o = this.options;
    const principal = this.principal();
    return frameworkInfo({
      name: o.frameworkName ?? DEFAULTS.frameworkName,
      user: o.user ?? userInfo().username,
      ...(this.framework === undefined ? {} : { frameworkId: this.framework }),
      failoverTimeoutSeconds: o.failoverTimeoutSeconds ?? DEFAULTS.failoverTimeoutSeconds,
      roles: this.roleBook.roles,
      taskKilling: o.taskKilling ?? false,
      gpus: o.gpus ?? false,
      ...(o.hostname === undefined ? {} : { hostname: o.hostname }),
      ...(o.webuiUrl === undefined ? {} : { webuiUrl: o.webuiUrl }),
      ...(principal === undefined ? {} : { principal }),
    });
  }

  private sendUpdateFramework(): void {
    const info = this.info();
    this.subscribedRoles = info.roles ?? [];
    this.send({ call: updateFrameworkCall(info, this.roleBook.suppressedWithin(this.subscribedRoles)) });
  }

  /**
   * REVIVE/SUPPRESS: an empty list goes as is (every role); otherwise narrowed to subscribed
   * roles, and skipped when none is left (an empty list would mean every role, §2.6, §2.7).
   */
  private sendRoleCall(roles: readonly string[], build: (frameworkId: string, roles: readonly string[]) => Call): void {
    if (this.framework === undefined || this.lifecycle !== 'subscribed') return;
    if (roles.length === 0) {
      this.send({ call: build(this.framework, []) });
      return;
    }
    const known = RoleBook.subscribedOf(roles, this.subscribedRoles);
    if (known.length > 0) this.send({ call: build(this.framework, known) });
  }

  private send(item: OutgoingCall): void {
    if (this.lifecycle === 'stopped') return;
    const shed = this.outbox.shed;
    this.outbox.enqueue(item);
    if (this.outbox.shed !== shed) {
      this.log.warn(`more calls wait for the master than ${this.maxQueuedCalls} (it sends updates faster than they are answered): ${this.outbox.shed - shed} of the oldest KILL and ACKNOWLEDGE calls dropped (${this.outbox.shed} so far); agents resend unacknowledged updates and kills are retried`);
    }
  }

  /** Posts one call on the current stream and reacts to the answer (§1.6). Never rejects. */
  private async sendNow(item: OutgoingCall, gen: number): Promise<void> {
    const baseUrl = this.leaderUrl;
    const streamId = this.streamId;
    if (gen !== this.generation || baseUrl === undefined || streamId === undefined) {
      item.dropped?.();
      return;
    }
    let body: Uint8Array;
    try {
      body = encodeCall(item.call, this.format);
    } catch (err) {
      this.log.warn(`cannot encode a ${item.call.type} call: ${(err as Error).message}`);
      item.dropped?.();
      return;
    }
    const answer = await postCall({
      baseUrl, body, contentType: MEDIA_TYPES[this.format], streamId, agents: this.agents, signal: this.callsAbort.signal,
      ...(this.authorization === undefined ? {} : { authorization: this.authorization }),
      timeoutMs: this.options.callTimeoutMs ?? DEFAULTS.callTimeoutMs,
    });
    if (this.lifecycle === 'stopped') return;
    const verdict = callAnswerVerdict(answer);
    if (verdict.kind === 'ok') return;
    this.metrics.failedCalls++;
    const what = `${item.call.type} to ${baseUrl}: ${verdict.message}`;
    if (answer.kind === 'failed' && answer.aborted === true) {
      // Given up when its subscription was lost; the master may or may not have handled it. A KILL
      // or ACKNOWLEDGE is harmless twice: held for (or sent on) the next subscription. An ACCEPT is
      // left to reconciliation, never reported dropped (it may have launched); the rest is
      // restated by the next SUBSCRIBE or the core's reconciliation on `subscribed`.
      if (heldAcrossDisconnect(item.call)) this.outbox.enqueue(item);
      this.log.info(`${what}${heldAcrossDisconnect(item.call) ? '; sent again on the next subscription' : ''}`);
      return;
    }
    if (item.call.type === 'UPDATE_FRAMEWORK' && answer.kind === 'answered' && (answer.status === 400 || answer.status === 403)) {
      const refusal = masterRefusal(answer.body);
      if (this.leaveRefusedRoles(refusal, answer.body)) {
        // The master keeps the previous roles; restate the accepted ones (the next SUBSCRIBE would too).
        this.sendUpdateFramework();
        return;
      }
      if (refusal.kind === 'final') {
        this.fatal(new Error(`the Mesos master refused UPDATE_FRAMEWORK: ${refusal.explanation}`));
        return;
      }
    }
    if (verdict.kind === 'unknown' && this.retryCall(item, gen, what)) return;
    if (verdict.kind === 'unknown' && item.unanswered !== undefined && gen === this.generation) {
      item.unanswered(what);
      return;
    }
    if (verdict.kind === 'resubscribe' && gen === this.generation) {
      this.lost(what);
      this.outbox.enqueue(item); // held (KILL, ACKNOWLEDGE) for the next subscription, or dropped
      return;
    }
    if (verdict.kind !== 'unknown') item.dropped?.();
    this.log.warn(what);
  }

  /** Retries a call that got no answer, when harmless (unanswered-call-retry.ts); whether it will be. */
  private retryCall(item: OutgoingCall, gen: number, what: string): boolean {
    if (gen !== this.generation) return false;
    const delayMs = this.unanswered.retry(item);
    if (delayMs !== undefined) this.log.warn(`${what}; sending it again in ${delayMs} ms`);
    return delayMs !== undefined;
  }

  /**
   * The tasks of launches that never reached the master, reported as Mesos reports an ACCEPT of
   * an invalid offer (§3.4, §7.3: TASK_DROPPED, REASON_INVALID_OFFERS, no uuid): the core retries
   * them elsewhere. Posted on a later turn, never from inside a driver call.
   */
  private dropLaunches(operations: readonly LaunchOperation[], message: string, state: 'TASK_DROPPED' | 'TASK_ERROR' = 'TASK_DROPPED', reason = 'REASON_INVALID_OFFERS'): void {
    for (const task of launchedTasks(operations)) {
      this.agentTasks.updated(task.taskId, task.agentId, state);
      this.postLater({ type: 'status', status: { taskId: task.taskId, agentId: task.agentId, state, reason, message } });
    }
  }

  private postLater(input: ClusterInput): void {
    if (this.lifecycle === 'stopped') return;
    this.deferred.push(input);
    this.deferredTimer ??= setImmediate(() => {
      this.deferredTimer = undefined;
      const inputs = this.deferred;
      this.deferred = [];
      for (const i of inputs) this.post(i);
    });
  }
}

/** The abort of one subscription's calls: each call in flight listens to it (up to `maxConcurrentCalls`, which may exceed Node's warning threshold). */
function callsAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** The tasks of launch operations, with the agent each is launched on. */
function launchedTasks(operations: readonly LaunchOperation[]): { readonly taskId: string; readonly agentId: string }[] {
  return operations.flatMap((op) => (op.kind === 'launch' ? [op.task] : op.tasks));
}

/** A refused call's body for a log line: `: <text>`, or ` with an empty body`. */
function answerText(body: string): string {
  const text = body.trim();
  return text === '' ? ' with an empty body' : `: ${text}`;
}
