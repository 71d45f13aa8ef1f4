import type { AppSpec } from './app';
import type { PodSpec } from './pod';

export type { BackoffPolicy, KillSelection, RunSpecCommon, UnreachablePolicy, UpgradePolicy, VersionInfo } from './run-spec-common';

/** An app or a pod. (The fields they share are in run-spec-common.ts, so that app.ts and pod.ts need not import this file.) */
export type RunSpec = AppSpec | PodSpec;
