import { closeSync, existsSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { makeDirs } from '../make-dirs';
import { join } from 'node:path';
import type { SchedulerPorts, Scheduler, SchedulerOptions } from '../../scheduler/index';
import type { SchedulerInput } from '../../scheduler/model/inputs';
import type { Clock } from '../../scheduler/ports/clock';
import type { ClusterDriver } from '../../scheduler/ports/cluster-driver';
import type { OfferOperation } from '../../scheduler/model/launch';
import type { StoredState } from '../../scheduler/ports/store';
import type { LoopObserver } from '../real-time-loop';
import { LoadObservedStore } from './load-observed-store';
import type { PlanFormat } from '../../api/events/wire-event-json';
import {
  callRecord, eventRecord, inputRecord, RECORDING_FILE, RECORDING_FORMAT, recordedPlanFormat, snapshotPieces, startRecord, type RecordedCluster, type StartRecord,
} from './recording-format';

/** Default of `--record_ring`: inputs the always-on ring keeps (with everything the core did for them). */
export const DEFAULT_RING_INPUTS = 2000;

/** The ring's other bound: the characters of its records (64 Mi), so that large inputs (offers of many agents, plans of large groups) cannot make it grow without bound. */
export const RING_CHARS_MAX = 64 * 1024 * 1024;

/** How a {@link FlightRecorder} is built. */
export interface FlightRecorderOptions {
  readonly cluster: RecordedCluster;
  /** The core's options (replay builds the core with them). */
  readonly options: Partial<SchedulerOptions>;
  /** Inputs the ring keeps; older ones fall out (`Infinity`: all, for replay). */
  readonly ringInputs: number;
  /** Characters of records the ring keeps at most (default {@link RING_CHARS_MAX}); the oldest inputs fall out first. */
  readonly ringChars?: number;
  /** `--record DIR`: every record is also written to `DIR/recording.jsonl` as it happens. */
  readonly dir?: string;
  /**
   * How deployment events' plans are written (default: as {@link RECORDING_FORMAT} writes them,
   * light; replay passes the format of the recording it replays: recording-format.ts).
   */
  readonly eventPlans?: PlanFormat;
}

/** What {@link FlightRecorder.dump} wrote. */
export interface RingDump {
  readonly path: string;
  readonly inputs: number;
  /** Inputs that had fallen out of the ring: non-zero means the dump cannot be replayed (nor can it when the snapshot was larger than the ring keeps). */
  readonly dropped: number;
  readonly replayable: boolean;
}

/**
 * The flight recorder (issue 18): wraps the core's ports so that every input the core handles
 * (it is a {@link LoopObserver}, `beforeInput`), every random number it draws, every call it makes
 * on the driver, the prober and the timers, and every event it emits become records of a
 * recording (recording-format.ts), after a snapshot of what it loaded from the store. Records go
 * to a bounded ring (always) and to `DIR/recording.jsonl` (`--record DIR`, written as they happen,
 * so the input that made the core fail is on disk). `npm run sim -- replay DIR` runs a core over
 * them (sim/replay).
 *
 * While the core is being built (it recovers from the store then) its clock is held at one
 * instant, the recording's epoch, so that recovery reads the time the recording says; afterwards
 * the clock is the loop's, which is the instant of each input.
 */
export class FlightRecorder implements LoopObserver {
  private readonly header: string[] = [];
  private readonly ring: string[][] = [];
  private current: string[] = this.header;
  private dropped = 0;
  /** Characters of the records in the ring (the header is not counted: it is kept whole). */
  private ringChars = 0;
  /** Characters of the snapshot when it was larger than the ring keeps (then not in the header). */
  private snapshotDroppedChars: number | undefined;
  /** Why the snapshot could not be made, when it could not (then it is dropped as a large one is). */
  private snapshotError: string | undefined;
  private draws: number[] = [];
  private fd: number | undefined;
  private building = true;
  private epochMs = 0;
  private clock: Clock | undefined;
  /** The file of `--record DIR`. */
  readonly path: string | undefined;

  constructor(private readonly opts: FlightRecorderOptions) {
    if (opts.dir !== undefined) {
      makeDirs(opts.dir);
      this.path = freeRecordingPath(opts.dir);
      this.fd = openSync(this.path, 'wx');
    }
  }

  /** The core's ports, observed: build the core with what this returns, then {@link attach} it. */
  wrap(ports: SchedulerPorts): SchedulerPorts {
    const inner = ports.clock;
    this.epochMs = inner.nowMs();
    const clock: Clock = { nowMs: () => (this.building ? this.epochMs : inner.nowMs()) };
    this.clock = clock;
    const t = (): number => clock.nowMs() - this.epochMs;
    const call = (op: string, args: readonly unknown[]): void => this.write(callRecord(t(), op, args));
    return {
      clock,
      random: { next: () => { const v = ports.random.next(); this.draws.push(v); return v; } },
      timers: {
        schedule: (dueMs, input) => { call('timer', [dueMs - this.epochMs, input.timer]); return ports.timers.schedule(dueMs, input); },
        cancel: (id) => ports.timers.cancel(id),
      },
      driver: observedDriver(ports.driver, call),
      store: new LoadObservedStore(ports.store, (state) => this.started(state)),
      prober: { probe: (request) => { call('probe', [request]); ports.prober.probe(request); } },
    };
  }

  /** The core is built: its events are recorded from now on, and its clock is the loop's. */
  attach(scheduler: Scheduler): void {
    this.building = false;
    const plans = this.opts.eventPlans ?? recordedPlanFormat(RECORDING_FORMAT);
    scheduler.subscribe((event) => this.write(eventRecord(this.now(), event, plans)));
  }

  beforeInput(atMs: number, input: SchedulerInput): void {
    this.flushDraws();
    this.current = [];
    this.ring.push(this.current);
    this.write(inputRecord(atMs - this.epochMs, input));
    this.trimRing();
  }

  afterInput(): void {
    this.flushDraws();
    this.trimRing();
  }

  /** Drops the oldest inputs (never the one being handled) beyond either bound of the ring. */
  private trimRing(): void {
    const maxChars = this.opts.ringChars ?? RING_CHARS_MAX;
    while (this.ring.length > 0 && (this.ring.length > this.opts.ringInputs || (this.ringChars > maxChars && this.ring.length > 1))) {
      const old = this.ring.shift() ?? [];
      for (const line of old) this.ringChars -= line.length;
      this.dropped++;
    }
    if (this.ring.length === 0) this.current = [];
  }

  /** Every record kept: the header (start, snapshot, what recovery did) and the ring's inputs. */
  lines(): string[] {
    return [...this.header, ...this.ring.flat()];
  }

  /**
   * Writes the ring to `DIR/recording.jsonl` (DIR is created; an existing recording there is
   * refused). While no input has fallen out of the ring the dump is a whole recording that
   * replays; after that it starts with a `start` record saying how many fell out, and no snapshot.
   * With `--record_ring 0` there is no ring: undefined, and nothing is made.
   */
  dump(dir: string): RingDump | undefined {
    if (this.opts.ringInputs === 0) return undefined;
    const path = join(dir, RECORDING_FILE);
    if (existsSync(path)) throw new Error(`${dir} already holds a recording`);
    this.flushDraws();
    const inputs = this.ring.length;
    const start = JSON.parse(this.header[0]) as StartRecord;
    const head = this.dropped === 0 ? this.header.slice(1) : [];
    const snapshot = {
      ...(this.snapshotDroppedChars === undefined ? {} : { snapshotDroppedChars: this.snapshotDroppedChars }),
      ...(this.snapshotError === undefined ? {} : { snapshotError: this.snapshotError }),
    };
    const lines = [JSON.stringify({ ...start, ring: { inputs, dropped: this.dropped, ...snapshot } }), ...head, ...this.ring.flat()];
    makeDirs(dir);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return { path, inputs, dropped: this.dropped, replayable: this.dropped === 0 && this.snapshotDroppedChars === undefined };
  }

  /** Ends the file (an `end` record) and closes it; the ring stays readable. Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    this.flushDraws();
    this.write({ t: this.now(), k: 'end' });
    closeSync(this.fd);
    this.fd = undefined;
  }

  private now(): number {
    return (this.clock?.nowMs() ?? this.epochMs) - this.epochMs;
  }

  /**
   * The start record and the snapshot. The ring keeps the snapshot only within its character
   * bound (`ringChars`, 64 Mi by default), as it keeps its inputs: a larger one is written to
   * `--record DIR` alone, and a dump of the ring then says the snapshot was dropped (replay refuses
   * it, as a ring that dropped inputs). The snapshot is made in pieces (`snapshotPieces`): without
   * `--record` the encoding stops once it is larger than the ring keeps, and no piece larger than
   * one stored record is ever one string. A snapshot that cannot be made at all is dropped the same
   * way: the recorder must never stop pacer from starting.
   */
  private started(state: StoredState): void {
    this.write({ ...startRecord(this.opts.cluster, this.epochMs, this.opts.options) });
    const maxChars = this.opts.ringChars ?? RING_CHARS_MAX;
    let kept: string[] | undefined = [];
    let chars = 0;
    try {
      for (const piece of snapshotPieces(state)) {
        chars += piece.length;
        if (this.fd !== undefined) writeSync(this.fd, piece);
        if (kept !== undefined && chars > maxChars) kept = undefined;
        kept?.push(piece);
        if (kept === undefined && this.fd === undefined) break;
      }
    } catch (err) {
      kept = undefined;
      this.snapshotError = (err as Error).message.slice(0, 200);
    }
    if (this.fd !== undefined) writeSync(this.fd, '\n');
    if (kept === undefined) {
      this.snapshotDroppedChars = chars;
      return;
    }
    // The header (not the ring, not the file again: written above).
    this.current.push(kept.join(''));
  }

  private flushDraws(): void {
    if (this.draws.length === 0) return;
    const v = this.draws;
    this.draws = [];
    this.write({ t: this.now(), k: 'draws', v });
  }

  private write(record: Readonly<Record<string, unknown>>): void {
    this.writeLine(JSON.stringify(record));
  }

  private writeLine(line: string): void {
    this.current.push(line);
    if (this.current !== this.header && this.ring.at(-1) === this.current) this.ringChars += line.length;
    if (this.fd !== undefined) writeSync(this.fd, `${line}\n`);
  }
}

/**
 * `DIR/recording.jsonl`, or — when a recording is there already (a restart, a new leadership term
 * with `--zk`) — the first free `DIR/recording-N.jsonl`: a recording is never overwritten.
 */
function freeRecordingPath(dir: string): string {
  let path = join(dir, RECORDING_FILE);
  for (let n = 2; existsSync(path); n++) path = join(dir, RECORDING_FILE.replace(/\.jsonl$/, `-${n}.jsonl`));
  return path;
}

/**
 * An operation as a plain object: the core's app launches resolve their task on first read (a
 * class with a getter, scheduler/launcher/task-launch.ts), which the codec refuses to encode; the
 * record holds the same keys in the same order, the resolved task included.
 */
function plainOperation(op: OfferOperation): OfferOperation {
  return op.kind === 'launch' ? { kind: 'launch', task: op.task, allocation: op.allocation } : op;
}

/** The driver, each call recorded (`op` = the method's name) before it is passed on. */
function observedDriver(driver: ClusterDriver, call: (op: string, args: readonly unknown[]) => void): ClusterDriver {
  return {
    accept: (offerId, operations, refuseMs) => { call('accept', [offerId, operations.map(plainOperation), refuseMs]); driver.accept(offerId, operations, refuseMs); },
    decline: (offerIds, refuseMs) => { call('decline', [offerIds, refuseMs]); driver.decline(offerIds, refuseMs); },
    kill: (taskId, agentId, gracePeriodMs) => { call('kill', [taskId, agentId ?? null, gracePeriodMs]); driver.kill(taskId, agentId, gracePeriodMs); },
    acknowledge: (agentId, taskId, uuid) => { call('acknowledge', [agentId, taskId, uuid]); driver.acknowledge(agentId, taskId, uuid); },
    reconcile: (tasks) => { call('reconcile', [tasks]); driver.reconcile(tasks); },
    revive: (roles) => { call('revive', [roles]); driver.revive(roles); },
    suppress: (roles) => { call('suppress', [roles]); driver.suppress(roles); },
    updateFrameworkRoles: (roles) => { call('updateFrameworkRoles', [roles]); driver.updateFrameworkRoles?.(roles); },
  };
}
