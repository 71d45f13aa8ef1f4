import { PlacementCounts } from '../constraints/placement-counts';
import { compileLaunchRequest } from './launch-request';
import { RejectionStats } from './rejection-stats';
import type { RunSpec } from '../model/run-spec';
import { InstanceIndex } from './instance-index';
import { InstanceQueue } from './instance-queue';
import type { RunSpecState } from './run-spec-state';

/** Fresh tracking state for a run spec that has no instances yet. */
export function newRunSpecState(spec: RunSpec, lastUnusedOffersMax: number): RunSpecState {
  const request = compileLaunchRequest(spec);
  return {
    spec,
    request,
    instances: new InstanceIndex(),
    scheduled: new InstanceQueue(),
    activeCount: 0,
    runningCount: 0,
    floorCounted: 0,
    floorVersion: 0,
    toCreate: 0,
    toKill: [],
    counts: new PlacementCounts(request.constraints),
    deleting: false,
    instanceRoles: new Map(),
    rejections: new RejectionStats(lastUnusedOffersMax),
    // Set here so that every run spec state has one shape (the placement reads them).
    placedTarget: undefined,
    placedSpec: undefined,
    changedEpoch: -1,
  };
}
