import type { Deployment } from '../../model/deployment';
import type { Group } from '../../groups/group';
import { allRunSpecs, findRunSpec } from '../../groups/tree-query';
import type { InstanceFields } from '../../model/instance';
import type { RunSpec } from '../../model/run-spec';
import type { SetAsideRecord, StoredState } from '../../ports/store';
import { deploymentProblem } from './deployment-check';
import { rememberingRootCheck, type RootCheck } from './group-check';
import { instanceProblem } from './instance-check';
import { rememberingRunSpecCheck, type RunSpecCheck } from './run-spec-check';

/** What recovery can load from a store, and what it must set aside or write back first. */
export interface SoundStoredState {
  /** Only records the core can load, consistent with each other. */
  readonly state: StoredState;
  /** Records to set aside (besides those the store already set aside while decoding). */
  readonly setAside: readonly SetAsideRecord[];
  /** A root that replaces the stored one (which was unsound or missing): to be written back. */
  readonly rootToSave?: Group;
  /** Run specs taken from the root because their own records were set aside: to be written back. */
  readonly runSpecsToSave: readonly RunSpec[];
}

/**
 * Splits what a store loaded into what the core can run and what it must set aside (issue 11: no
 * stored record, however bad, may stop pacer from starting; the rest runs). Pure and deterministic.
 *
 * - Run spec versions, root versions, deployments and instances that fail their checks
 *   (`stored/*-check.ts`) are set aside one by one.
 * - An unsound or missing root (while other records exist) is replaced by the newest sound root
 *   version, else an empty root; then running deployments towards another root are set aside too.
 * - Run specs that are neither in the root nor in a kept deployment are set aside (nothing would
 *   ever manage them: the API reads the root, and answered 404 for one the core ran).
 * - An unsound run spec is set aside; when the root holds a sound copy of it, that copy runs
 *   instead (the root is the authority on definitions).
 * - Instances of a run spec that was set aside (and not replaced) are set aside with it; their
 *   tasks are then unknown to the core, which kills them when they report, as any unknown task.
 */
export function soundStoredState(stored: StoredState, emptyRoot: Group): SoundStoredState {
  // One run spec object is judged once, however many roots hold it (rememberingRunSpecCheck).
  const runSpecProblem = rememberingRunSpecCheck();
  // And one root object once, however many deployments go from or to it (store format 8).
  const rootCheck = rememberingRootCheck(runSpecProblem);
  const setAside: SetAsideRecord[] = [];
  const aside = (record: SetAsideRecord): false => {
    setAside.push(record);
    return false;
  };
  const versions = stored.versions.filter((v) => checked(runSpecProblem(v), (reason) => aside({ kind: 'runSpecVersion', key: String(v.id), version: String(v.version), reason })));
  const rootVersions = stored.rootVersions.filter((r) => checked(rootCheck(r, '$'), (reason) => aside({ kind: 'rootVersion', key: String(r.version), reason })));
  const { root, replaced } = soundRoot(stored, rootVersions, emptyRoot, aside, rootCheck);
  const deployments = stored.deployments.filter((d) => checked(
    deploymentProblem(d, '$', runSpecProblem, rootCheck) ?? (replaced && d.target.version !== root?.version ? 'its target is not the root it fell back to' : undefined),
    (reason) => aside({ kind: 'deployment', key: String(d.plan?.id), reason }),
  ));
  const lost = new Set((stored.setAside ?? []).filter((r) => r.kind === 'runSpec').map((r) => r.key));
  const runSpecs = soundRunSpecs(stored.runSpecs, lost, root, deployments, replaced, aside, runSpecProblem);
  const instances = stored.instances.filter((inst) => checked(instanceOf(inst, runSpecs.dropped), (reason) => aside({ kind: 'instance', key: String(inst.instanceId), reason })));
  return {
    state: { ...stored, ...(root === undefined ? {} : { root }), versions, rootVersions, deployments, runSpecs: runSpecs.running, instances },
    setAside,
    ...(replaced && root !== undefined ? { rootToSave: root } : {}),
    runSpecsToSave: runSpecs.fromRoot,
  };
}

/** True when there is no problem; otherwise reports it (and is false). */
function checked(problem: string | undefined, report: (reason: string) => false): boolean {
  return problem === undefined ? true : report(problem);
}

function soundRoot(
  stored: StoredState, rootVersions: readonly Group[], emptyRoot: Group, aside: (r: SetAsideRecord) => false, rootCheck: RootCheck,
): { root?: Group; replaced: boolean } {
  const problem = stored.root === undefined ? undefined : rootCheck(stored.root, '$');
  if (stored.root !== undefined && problem === undefined) return { root: stored.root, replaced: false };
  const holdsAnything = stored.runSpecs.length + stored.instances.length + stored.deployments.length + stored.rootVersions.length > 0;
  if (stored.root === undefined && !holdsAnything) return { replaced: false };
  const fallback = rootVersions[rootVersions.length - 1];
  const instead = fallback === undefined ? 'an empty root' : `root version ${fallback.version}`;
  if (problem !== undefined) aside({ kind: 'root', key: '/', reason: `${problem}; replaced by ${instead}` });
  return { root: fallback ?? emptyRoot, replaced: true };
}

/**
 * The run specs to run: the sound stored ones, and the root's copies of those set aside (here, or
 * by the store: `lost`) when the root has one. `dropped`: set aside with nothing to run instead.
 */
function soundRunSpecs(
  stored: readonly RunSpec[], lost: ReadonlySet<string>, root: Group | undefined, keptDeployments: readonly Deployment[], replaced: boolean,
  aside: (r: SetAsideRecord) => false, runSpecProblem: RunSpecCheck,
): { running: RunSpec[]; fromRoot: RunSpec[]; dropped: Set<string> } {
  const running: RunSpec[] = [];
  const fromRoot: RunSpec[] = [];
  const dropped = new Set<string>();
  const managed = root === undefined ? undefined : managedIds(root, keptDeployments);
  const unmanaged = replaced ? 'not in the root it fell back to' : 'neither the root nor a running deployment names it';
  for (const id of lost) {
    const copy = root === undefined || managed?.has(id) === false ? undefined : findRunSpec(root, id);
    if (copy === undefined) dropped.add(id);
    else {
      running.push(copy);
      fromRoot.push(copy);
    }
  }
  for (const spec of stored) {
    const id = String(spec.id);
    const problem = runSpecProblem(spec) ?? (managed === undefined || managed.has(id) ? undefined : unmanaged);
    if (problem === undefined) {
      running.push(spec);
      continue;
    }
    const copy = root === undefined || managed?.has(id) === false ? undefined : findRunSpec(root, id);
    aside({ kind: 'runSpec', key: id, reason: copy === undefined ? problem : `${problem}; running the root's copy instead` });
    if (copy === undefined) dropped.add(id);
    else {
      running.push(copy);
      fromRoot.push(copy);
    }
  }
  running.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { running, fromRoot, dropped };
}

/** Ids of the run specs the root or a running deployment (either end) names; each root object read once. */
function managedIds(root: Group, deployments: readonly Deployment[]): Set<string> {
  const ids = new Set(allRunSpecs(root).map((s) => s.id));
  const read = new Set<Group>([root]);
  for (const d of deployments) {
    for (const g of [d.original, d.target]) {
      if (read.has(g)) continue;
      read.add(g);
      for (const s of allRunSpecs(g)) ids.add(s.id);
    }
  }
  return ids;
}

/**
 * Why an instance cannot be adopted. Its kind may differ from its run spec's: an app's instances
 * still being killed stay under the id when a pod takes it (the core keeps them so).
 */
function instanceOf(inst: InstanceFields, dropped: ReadonlySet<string>): string | undefined {
  const problem = instanceProblem(inst);
  if (problem !== undefined) return problem;
  return dropped.has(inst.runSpecId) ? `its run spec ${inst.runSpecId} was set aside` : undefined;
}
