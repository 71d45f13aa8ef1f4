import { sameConfig } from '../model/same-config';
import { assert } from '../kernel/assert';
import type { AppSpec } from '../model/app';
import type { Group } from './group';
import { mapWith, withGroupAt } from './group-tree';
import { editedFrom, editedKeys } from './map-edits';
import { comparePathIds, parentOf } from './path-id';
import { stampVersions } from './versioning';

/** `--local_port_min`..`--local_port_max`: where dynamic service ports come from (both inclusive). */
export interface ServicePortRange {
  readonly min: number;
  readonly max: number;
}

/** The outcome of assigning service ports to a new root. */
export type ServicePortsResult = { readonly ok: true; readonly root: Group } | { readonly ok: false; readonly message: string };

/**
 * An app's service ports (Marathon's `AppDefinition.servicePorts`): `container.portMappings[].servicePort`
 * when the container has port mappings (container networking), else `portDefinitions[].port`
 * (host networking); 0 is a dynamic port not assigned yet. Pods have none.
 */
export function servicePortsOf(app: AppSpec): number[] {
  const mappings = app.container?.portMappings ?? [];
  if (mappings.length > 0) return mappings.map((m) => m.servicePort);
  return app.portDefinitions.map((d) => d.port);
}

/**
 * Marathon's service port rule of the root group (`core/group/impl/AssignDynamicServiceLogic.scala`,
 * run by `GroupManagerImpl.updateRoot` on every root change before versioning): every app of `to`
 * that is new or changed (not only scaled) gets each service port 0 replaced by a port of `range`,
 * the ports its previous version had in the range (and no longer names) first, then the lowest
 * port no app of `from` or `to` uses — so a dynamic port is unique in the cluster, an app keeps
 * its port across updates, and fixed ports are kept as given (Marathon does not refuse two apps
 * naming the same fixed service port; load balancers' blue/green deployments rely on it).
 * Deterministic: apps in path id order, lowest free port first.
 *
 * The assigned ports are written into the app (`portDefinitions[].port` or
 * `container.portMappings[].servicePort`); with `requirePorts` (host networking) they are also the host
 * ports the task needs. An app whose only change was to ask for its ports again (0) is then its
 * previous config: its versions are stamped again against the previous version, so that it is
 * not restarted (Marathon assigns before `GroupVersioningUtil`). Refused when the range runs out,
 * with Marathon's message.
 */
export function assignServicePorts(range: ServicePortRange, from: Group, to: Group): ServicePortsResult {
  const pending = appsNeedingPorts(from, to);
  if (pending.length === 0) return { ok: true, root: to };
  const used = new Set<number>();
  const seen = new Set<ReadonlyMap<string, AppSpec>>();
  for (const tree of [from, to]) {
    forEachAppsMap(tree, (apps) => {
      if (seen.has(apps)) return;
      seen.add(apps);
      for (const p of portsOfApps(apps)) used.add(p);
    });
  }
  const free = freePorts(range, used);
  let root = to;
  for (const { app, previous } of pending) {
    const assigned = assignedApp(app, previous, range, free);
    if (assigned === undefined) return { ok: false, message: `All ports in the range [${range.min}-${range.max}) are already in use` };
    root = withGroupAt(root, parentOf(app.id), (parent) => {
      if (parent === undefined) assert(false, `the group of ${app.id} exists`);
      const apps = mapWith(parent.apps, app.id, assigned);
      portsOfApps(apps); // known for the next change, as appsNeedingPorts keeps them
      return { ...parent, apps };
    }, 'off');
  }
  return { ok: true, root };
}

/**
 * The apps of `to` that ask for a dynamic port (0) and are new or changed (not only scaled) since
 * `from`, with their previous version, in path id order. Subtrees and apps that `to` shares with
 * `from` (the same object: a root change copies only the path to what it changed, and stamping
 * versions copies groups, not their maps of apps) are unchanged and skipped unread, and a map of
 * apps made from `from`'s by a few edits is read at the edited keys only, so a change costs what it
 * changed, not the size of its group or of the tree.
 */
function appsNeedingPorts(from: Group, to: Group): { app: AppSpec; previous: AppSpec | undefined }[] {
  const out: { app: AppSpec; previous: AppSpec | undefined }[] = [];
  const pending: [Group, Group | undefined][] = [[to, from]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [group, before] = next;
    if (group === before) continue;
    if (group.apps !== before?.apps) {
      for (const app of changedApps(before?.apps, group.apps)) {
        const previous = before?.apps.get(app.id);
        if (previous === app || !servicePortsOf(app).includes(0) || (previous !== undefined && sameConfig(previous, app))) continue;
        out.push({ app, previous });
      }
      // Keeps the ports of the changed map known (one edit from the last ones: cheap), so that a
      // later change that needs them works them out from these instead of reading every app.
      portsOfApps(group.apps);
    }
    for (const child of group.groups.values()) pending.push([child, before?.groups.get(child.id)]);
  }
  return out.sort((a, b) => comparePathIds(a.app.id, b.app.id));
}

/**
 * The apps of `apps` that may differ from `before`'s: those at the keys edited since `before` when
 * `apps` is a known edit of it (groups/map-edits.ts: one app changed in a group of 10,000 reads
 * one app), else every app.
 */
function changedApps(before: ReadonlyMap<string, AppSpec> | undefined, apps: ReadonlyMap<string, AppSpec>): Iterable<AppSpec> {
  const keys = before === undefined ? undefined : editedKeys(before, apps);
  if (keys === undefined) return apps.values();
  const out: AppSpec[] = [];
  for (const key of new Set(keys)) {
    const app = apps.get(key);
    if (app !== undefined) out.push(app);
  }
  return out;
}

/** Calls `fn` with every group's map of apps in the tree. */
function forEachAppsMap(root: Group, fn: (apps: ReadonlyMap<string, AppSpec>) => void): void {
  const pending: Group[] = [root];
  for (let group = pending.pop(); group !== undefined; group = pending.pop()) {
    fn(group.apps);
    for (const child of group.groups.values()) pending.push(child);
  }
}

/**
 * The service ports of every app of a map of apps, computed once per map: maps are immutable and
 * a root change copies only the maps it changed, so a map the target shares with the original root
 * is read once, and one an earlier change already read (its target is this change's original) not at all.
 */
function portsOfApps(apps: ReadonlyMap<string, AppSpec>): readonly number[] {
  let ports = portsByApps.get(apps);
  if (ports === undefined) {
    ports = editedPorts(apps) ?? wholePorts(apps);
    portsByApps.set(apps, ports);
  }
  return ports;
}

function wholePorts(apps: ReadonlyMap<string, AppSpec>): number[] {
  const list: number[] = [];
  for (const app of apps.values()) for (const p of servicePortsOf(app)) list.push(p);
  return list;
}

/**
 * The ports of a map made by one edit (map-edits.ts) from a map whose ports are known: those, less
 * the edited app's ports there, plus its ports here (the list is read as a multiset: two apps may
 * name the same fixed port). Undefined when not known.
 */
function editedPorts(apps: ReadonlyMap<string, AppSpec>): number[] | undefined {
  const from = editedFrom(apps);
  const before = from === undefined ? undefined : portsByApps.get(from.parent);
  if (from === undefined || before === undefined) return undefined;
  const list = [...before];
  const was = from.parent.get(from.key);
  for (const p of was === undefined ? [] : servicePortsOf(was)) {
    const at = list.indexOf(p);
    if (at < 0) return undefined;
    list.splice(at, 1);
  }
  const now = apps.get(from.key);
  for (const p of now === undefined ? [] : servicePortsOf(now)) list.push(p);
  return list;
}

const portsByApps = new WeakMap<ReadonlyMap<string, AppSpec>, readonly number[]>();

/**
 * `app` with its dynamic ports assigned (its previous version's ports in the range first, then
 * `free`), stamped again when that makes it its previous config; undefined when the range ran out.
 */
function assignedApp(app: AppSpec, previous: AppSpec | undefined, range: ServicePortRange, free: Iterator<number, undefined>): AppSpec | undefined {
  const ports = servicePortsOf(app);
  const reusable = (previous === undefined ? [] : servicePortsOf(previous)).filter((p) => p >= range.min && p <= range.max && !ports.includes(p));
  const assigned: number[] = [];
  for (const port of ports) {
    const next = port !== 0 ? port : reusable.shift() ?? free.next().value;
    if (next === undefined) return undefined;
    assigned.push(next);
  }
  const withPorts = withServicePorts(app, assigned);
  return previous !== undefined && sameConfig(previous, withPorts) ? stampVersions(previous, withPorts, app.version) as AppSpec : withPorts;
}

/** Ports of `range` not in `used`, lowest first, each handed out once. */
function* freePorts(range: ServicePortRange, used: ReadonlySet<number>): Generator<number, undefined> {
  for (let p = range.min; p <= range.max; p++) if (!used.has(p)) yield p;
  return undefined;
}

/** `app` with its service ports set to `ports` (same length as {@link servicePortsOf}). */
function withServicePorts(app: AppSpec, ports: readonly number[]): AppSpec {
  const container = app.container;
  if (container !== undefined && container.portMappings.length > 0) {
    const portMappings = container.portMappings.map((m, i) => ({ ...m, servicePort: ports[i] }));
    return { ...app, container: { ...container, portMappings } };
  }
  const portDefinitions = app.portDefinitions.map((d, i) => ({ ...d, port: ports[i] }));
  return { ...app, portDefinitions, hostPorts: app.requirePorts ? [...ports] : app.hostPorts };
}
