import type { ApiDeps } from '../../api-deps';
import { comparePathIds, allRunSpecs } from '../../../scheduler/index';
import type { PodSpec } from '../../../scheduler/model/pod';

/**
 * Every pod queries can report, sorted by id, each as `podForQuery` reports it (spec rule 13: the
 * previous version while a redeployment runs): the pods of the current root, and pods whose
 * deletion is still running (they are listed, with their last definition, until it finishes).
 */
export function podsForQuery(deps: ApiDeps): PodSpec[] {
  const ids = new Set<string>();
  for (const spec of allRunSpecs(deps.scheduler.root())) if (spec.kind === 'pod') ids.add(spec.id);
  for (const spec of deps.scheduler.runSpecs()) if (spec.kind === 'pod') ids.add(spec.id);
  const out: PodSpec[] = [];
  for (const id of [...ids].sort(comparePathIds)) {
    const spec = deps.scheduler.podForQuery(id);
    if (spec?.kind === 'pod') out.push(spec);
  }
  return out;
}
