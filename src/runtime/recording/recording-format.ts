import type { MarathonEvent } from '../../scheduler/model/events';
import type { SchedulerInput } from '../../scheduler/model/inputs';
import { isoTime, type SchedulerOptions } from '../../scheduler/index';
import type { StoredState } from '../../scheduler/ports/store';
import type { Group } from '../../scheduler/index';
import type { RunSpec } from '../../scheduler/model/run-spec';
import { wireEventJson, type PlanFormat } from '../../api/events/wire-event-json';
import { decode, encode, type JsonValue } from '../../store/sqlite/codec';

/**
 * A flight recording (issue 18) is a JSONL trace in the simulator's format (sim/runner/trace.ts:
 * one JSON object per line, `t` = ms since the start, `k` = the kind), with what replay needs in
 * full:
 *
 * | `k`        | fields                                                                  |
 * | ---------- | ----------------------------------------------------------------------- |
 * | `start`    | `recording` (format), `cluster`, `epoch` (ISO), `epochMs`, `options` (the core's), `ring` (ring dumps) |
 * | `snapshot` | `state`: what the core loaded from the store at start-up                |
 * | `in`       | `type`, `input`: one input the core handled, at `t`                     |
 * | `draws`    | `v`: the random numbers the core drew since the previous record of ids  |
 * | `call`     | `op`, `args`: a call of the core on a port (driver, prober, timers)     |
 * | `event`    | `e`: an event of the core, as `/v2/events?plan-format=light` writes it (`/1` and `/2`: the default full plans, as the sim's record) |
 * | `end`      | the recording stopped                                                   |
 *
 * Values the store's codec tags (Maps of a root group, Infinity) are written in the codec's JSON
 * form (src/store/sqlite/codec.ts), so a recorded input decodes to the value the core handled.
 */
export const RECORDING_FORMAT = 'pacer-recording/4';

/**
 * The formats replay reads: `/1` held every run spec of the snapshot whole wherever it occurs (the
 * root and each root version held every app again: 178 MB for 3,001 apps with 4 KB labels and 16
 * root versions); `/2` writes each run spec once ({@link snapshotLine}); `/3` writes the deployment
 * events' plans light ({@link recordedPlanFormat}); `/4` writes a deployment's root that is one of
 * the snapshot's root versions as a reference to it (store format 8 loads them so).
 */
export const READABLE_RECORDING_FORMATS: ReadonlySet<string> = new Set(['pacer-recording/1', 'pacer-recording/2', 'pacer-recording/3', RECORDING_FORMAT]);

/**
 * How a recording of `format` writes the plans of its deployment events. `/3` and later: light
 * (`{id, steps, version}`). Full plans carry both roots with every app definition, so each
 * deployment event of a change among 1,000 apps was about 1.5 MB; the always-on recorder encoded
 * every one of them, which was two thirds of the time an app creation took with 1,000 apps present
 * (2026-11-30), and a few such inputs filled the ring's 64 Mi characters. The roots are the core's
 * state, which replay rebuilds, so the light plan still tells whether a replay did the same. `/1`
 * and `/2` wrote them full; replay writes each recording's events as it was written.
 */
export function recordedPlanFormat(format: string): PlanFormat {
  return format === 'pacer-recording/1' || format === 'pacer-recording/2' ? 'full' : 'light';
}

/** The file of a recording inside its directory. */
export const RECORDING_FILE = 'recording.jsonl';

/** The cluster a recording was made on. */
export type RecordedCluster = 'local' | 'mesos' | 'replay';

/** The first record of a recording. */
export interface StartRecord {
  readonly t: 0;
  readonly k: 'start';
  readonly recording: typeof RECORDING_FORMAT;
  readonly cluster: RecordedCluster;
  readonly epoch: string;
  readonly epochMs: number;
  readonly options: JsonValue;
  /**
   * Ring dumps only: inputs kept, and how many older ones fell out of the ring (then the snapshot is
   * gone); `snapshotDroppedChars` when the snapshot was larger than the ring keeps (not in the dump):
   * at least that many characters (the recorder stops encoding it there), with `snapshotError`
   * when it could not be encoded at all.
   */
  readonly ring?: { readonly inputs: number; readonly dropped: number; readonly snapshotDroppedChars?: number; readonly snapshotError?: string };
}

/** A value as the store's codec writes it, as a JSON tree (embedded in a record). */
export function toTree(value: unknown): JsonValue {
  return JSON.parse(encode(value)) as JsonValue;
}

/** The value a {@link toTree} tree stands for. */
export function fromTree<T>(tree: unknown): T {
  return decode(JSON.stringify(tree)) as T;
}

export function startRecord(cluster: RecordedCluster, epochMs: number, options: Partial<SchedulerOptions>): StartRecord {
  return { t: 0, k: 'start', recording: RECORDING_FORMAT, cluster, epoch: isoTime(epochMs), epochMs, options: toTree(options) };
}

/** The key under which a snapshot's group (or `runSpecs`) entry refers to `versions[n]` (`{"$version": n}`). */
const VERSION_REF = '$version';
/** The key under which a snapshot's deployment root refers to `rootVersions[n]` (`{"$rootVersion": n}`, format `/4`). */
const ROOT_VERSION_REF = '$rootVersion';

/**
 * The `snapshot` record's line: {@link snapshotPieces} joined (tests, and what a recording holds).
 */
export function snapshotLine(state: StoredState): string {
  return [...snapshotPieces(state)].join('');
}

/**
 * The `snapshot` record's line in pieces, whose concatenation is the line: what the core loaded,
 * each run spec written once. The store hands the same run spec object to every place that holds
 * one version of it (a root, its versions and, since store format 6, a running deployment's two
 * roots refer to their apps' stored versions), so an app or pod of the root, of a root version, of
 * a deployment's roots (format `/3`), or of `runSpecs` that IS (by identity) an entry of `versions`
 * is written as `{"$version": <index in versions>}`; anything else is written whole. A running
 * deployment's original or target that IS one of the root versions (store format 8 refers to them
 * so, and its load hands the same object to both) is written as `{"$rootVersion": <index>}`
 * (format `/4`): with 585 deployments waiting among 1,085 apps, writing each root again for its
 * deployments was most of the snapshot and of the start-up's time.
 *
 * In pieces (one per top-level field, and one per version, root version, deployment and instance)
 * so that the flight recorder can stop as soon as the snapshot is larger than it keeps, and write a
 * large one to `--record DIR` without one string of it all: 585 running deployments among 1,085
 * apps, their roots' apps written whole, made a snapshot longer than V8's longest string (2^29
 * characters), and pacer could not start on that store (2026-11-30). Each piece is written from the
 * codec's text directly (no tree parsed back and written again).
 */
export function* snapshotPieces(state: StoredState): Generator<string> {
  const index = new Map<RunSpec, number>();
  state.versions.forEach((spec, i) => index.set(spec, i));
  const ref = <T extends RunSpec>(spec: T): T | { readonly [VERSION_REF]: number } => {
    const at = index.get(spec);
    return at === undefined ? spec : { [VERSION_REF]: at };
  };
  yield '{"t":0,"k":"snapshot","state":{';
  let first = true;
  for (const [key, value] of Object.entries(state) as [keyof StoredState, unknown][]) {
    if (value === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    switch (key) {
      case 'root': yield encode(groupMapped(value as Group, ref)); break;
      case 'runSpecs': yield encode((value as readonly RunSpec[]).map(ref)); break;
      case 'versions': yield* arrayPieces(value as readonly RunSpec[], (v) => encode(v)); break;
      case 'rootVersions': yield* arrayPieces(value as readonly Group[], (g) => encode(groupMapped(g, ref))); break;
      case 'deployments': {
        const rootIndex = new Map<Group, number>();
        state.rootVersions.forEach((root, i) => rootIndex.set(root, i));
        const root = (g: Group): unknown => {
          const at = rootIndex.get(g);
          return at === undefined ? groupMapped(g, ref) : { [ROOT_VERSION_REF]: at };
        };
        yield* arrayPieces(value as StoredState['deployments'], (d) => encode({ ...d, original: root(d.original), target: root(d.target) }));
        break;
      }
      case 'instances': yield* arrayPieces(value as readonly unknown[], (i) => encode(i)); break;
      default: yield encode(value);
    }
  }
  yield '}}';
}

/** A JSON array written element by element. */
function* arrayPieces<T>(items: readonly T[], piece: (item: T) => string): Generator<string> {
  yield '[';
  for (let i = 0; i < items.length; i++) yield i === 0 ? piece(items[i]) : `,${piece(items[i])}`;
  yield ']';
}

/**
 * `group` with each app and pod, its subgroups' likewise, passed through `each` (a plain copy): the
 * snapshot's references one way (`ref`: its entries are then references, typed as the group
 * only for the codec), and back (`resolve`).
 */
function groupMapped(group: Group, each: (spec: RunSpec) => unknown): Group {
  return {
    ...group,
    apps: new Map([...group.apps].map(([id, app]) => [id, each(app) as typeof app])),
    pods: new Map([...group.pods].map(([id, pod]) => [id, each(pod) as typeof pod])),
    groups: new Map([...group.groups].map(([id, g]) => [id, groupMapped(g, each)])),
  };
}

/**
 * The stored state of a snapshot record's `state` ({@link snapshotLine}; format `/1` held no
 * references, and reads the same way). Throws when a reference names no version.
 */
export function snapshotState(tree: unknown): StoredState {
  const state = fromTree<StoredState>(tree);
  const versions = state.versions;
  const resolve = <T>(value: T): T => {
    if (typeof value !== 'object' || value === null || !(VERSION_REF in value)) return value;
    const keys = Object.keys(value);
    const at = (value as Record<string, unknown>)[VERSION_REF];
    if (keys.length !== 1 || typeof at !== 'number' || versions[at] === undefined) throw new Error(`snapshot: a reference to no stored version (${JSON.stringify(value)})`);
    return versions[at] as T;
  };
  const rootVersions = state.rootVersions.map((g) => groupMapped(g, resolve));
  const root = (g: Group): Group => {
    if (!(ROOT_VERSION_REF in g)) return groupMapped(g, resolve);
    const at = (g as unknown as Record<string, unknown>)[ROOT_VERSION_REF];
    const found = typeof at === 'number' && Object.keys(g).length === 1 ? rootVersions[at] : undefined;
    if (found === undefined) throw new Error(`snapshot: a reference to no root version (${JSON.stringify(g)})`);
    return found;
  };
  return {
    ...state,
    ...(state.root === undefined ? {} : { root: groupMapped(state.root, resolve) }),
    runSpecs: state.runSpecs.map(resolve),
    rootVersions,
    deployments: state.deployments.map((d) => ({ ...d, original: root(d.original), target: root(d.target) })),
  };
}

export function inputRecord(t: number, input: SchedulerInput): Record<string, unknown> {
  return { t, k: 'in', type: input.type, input: toTree(input) };
}

export function callRecord(t: number, op: string, args: readonly unknown[]): Record<string, unknown> {
  return { t, k: 'call', op, args: toTree(args) };
}

/** An event's record: the simulator's (sim/runner/run-scenario.ts, full plans) and a recording's ({@link recordedPlanFormat}). */
export function eventRecord(t: number, event: MarathonEvent, plans: PlanFormat = 'full'): Record<string, unknown> {
  return { t, k: 'event', e: wireEventJson(event, plans) };
}
