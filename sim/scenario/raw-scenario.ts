/**
 * The shape of a scenario file after YAML parsing, as far as the JSON Schema guarantees it. The
 * converters read these types only after the schema has accepted the document.
 */

/** `"30s"` or milliseconds. */
export type RawDuration = string | number;
/** One duration (a fixed delay) or `[min, max]`. */
export type RawDelayRange = RawDuration | readonly [RawDuration, RawDuration];
/** `"31000-32000,33000-33100"` or `[[31000, 32000], ...]`. */
export type RawRanges = string | readonly (readonly [number, number])[];
/** An expected count: exact, or a comparison string. */
export type RawCount = number | string;

export interface RawResources {
  readonly cpus?: number;
  readonly mem?: number;
  readonly disk?: number;
  readonly gpus?: number;
  readonly ports?: RawRanges;
}

export type RawAttributeValue =
  | string
  | number
  | { readonly set: readonly (string | number)[] }
  | { readonly ranges: RawRanges };

export interface RawAgentGroup {
  readonly count?: number;
  readonly start?: number;
  readonly idPrefix?: string;
  readonly hostnamePrefix?: string;
  readonly region?: string;
  readonly zones?: readonly string[];
  readonly resources: RawResources;
  readonly reserved?: readonly ({ readonly role: string } & RawResources)[];
  readonly attributes?: Readonly<Record<string, RawAttributeValue>>;
}

export type RawHealthModel =
  | { readonly kind: 'healthy' }
  | { readonly kind: 'flaky'; readonly p: number }
  | { readonly kind: 'failingFrom'; readonly from: RawDuration }
  | { readonly kind: 'failingDuring'; readonly from: RawDuration; readonly to: RawDuration }
  | { readonly kind: 'slow'; readonly latency: RawDuration }
  | { readonly kind: 'status'; readonly status: number };

export type RawTaskModel =
  | { readonly kind: 'runForever' }
  | { readonly kind: 'exitAfter'; readonly after: RawDelayRange; readonly state?: 'TASK_FAILED' | 'TASK_FINISHED' }
  | { readonly kind: 'failToStart'; readonly after: RawDelayRange };

export interface RawSpreadCheck {
  readonly id: string;
  readonly field: string;
  readonly values?: RawCount;
  readonly maxPerValue?: number;
  readonly minPerValue?: number;
  readonly maxSkew?: number;
}

export interface RawOnAgentsCheck {
  readonly id: string;
  readonly agents: readonly string[];
}

export interface RawEventCheck {
  readonly type: string;
  readonly min?: number;
  readonly max?: number;
  readonly count?: number;
  readonly where?: Readonly<Record<string, string | number | boolean | null>>;
  readonly since?: RawDuration;
}

export interface RawExpectation {
  readonly instances?: Readonly<Record<string, Readonly<Record<string, RawCount>>>>;
  readonly healthy?: Readonly<Record<string, RawCount>>;
  readonly spread?: readonly RawSpreadCheck[];
  readonly onAgents?: RawOnAgentsCheck | readonly RawOnAgentsCheck[];
  readonly events?: readonly RawEventCheck[];
  readonly rejections?: readonly { readonly id: string; readonly reason: string }[];
  readonly deployments?: readonly RawDeploymentCheck[];
}

export interface RawDeploymentCheck {
  readonly id: string;
  readonly running?: boolean;
  readonly unplaced?: RawCount;
  readonly notHealthy?: RawCount;
  readonly toReplace?: RawCount;
  readonly reason?: string;
}

/** A Marathon app or pod definition as written (validated later by the converter). */
export type RawDefinition = Readonly<Record<string, unknown>> & { readonly id: string };

/** A timeline step: `at` and exactly one action key. */
export interface RawStep {
  readonly at: RawDuration;
  readonly force?: boolean;
  readonly deploy?: { readonly apps?: readonly RawDefinition[]; readonly pods?: readonly RawDefinition[] };
  readonly cancelDeployment?: { readonly id: string; readonly force?: boolean };
  readonly app?: Readonly<Record<string, unknown>> & { readonly id: string };
  readonly pod?: Readonly<Record<string, unknown>> & { readonly id: string };
  readonly scale?: { readonly id: string; readonly instances: number };
  readonly delete?: string;
  readonly kill?: { readonly id: string; readonly count?: number; readonly agent?: string; readonly scale?: boolean; readonly wipe?: boolean };
  readonly partition?: string;
  readonly heal?: string;
  readonly killAgent?: string;
  readonly addAgents?: RawAgentGroup;
  readonly health?: { readonly id: string; readonly model: RawHealthModel };
  readonly taskModel?: { readonly id: string; readonly model: RawTaskModel };
  readonly resetDelay?: string;
  readonly schedulerFailover?: { readonly downtime?: RawDuration };
  readonly expect?: RawExpectation;
  readonly note?: string;
}

export interface RawTimings {
  readonly offerInterval?: RawDuration;
  readonly staging?: RawDelayRange;
  readonly starting?: RawDelayRange;
  readonly running?: RawDelayRange;
  readonly shutdown?: RawDelayRange;
  readonly agentPingTimeout?: RawDuration;
  readonly probeLatency?: RawDelayRange;
  readonly agentRemoval?: RawDuration;
}

/** A whole scenario file. */
export interface RawScenario {
  readonly name: string;
  readonly description?: string;
  readonly seed: number;
  readonly duration: RawDuration;
  readonly options?: {
    readonly taskKilling?: boolean;
    readonly defaultRole?: string;
    readonly maxInstancesPerOffer?: number;
    readonly unhealthyKillFloor?: number;
    readonly timings?: RawTimings;
  };
  readonly invariants?: { readonly convergeWithin?: RawDuration; readonly upgradeBounds?: boolean };
  readonly cluster: { readonly agents: readonly RawAgentGroup[] };
  readonly timeline: readonly RawStep[];
}
