// The shapes of pacer's API answers the UI reads (Marathon 1.11's, as src/api/render writes them;
// pacer's own /pacer/v1/sim as src/api/ui/sim-view.ts defines it). Only the fields the UI uses.

export interface HealthCheckResult {
  readonly instanceId: string;
  readonly alive: boolean;
  readonly consecutiveFailures: number;
  readonly lastFailureCause?: string;
}

export interface Task {
  readonly appId: string;
  readonly id: string;
  readonly host: string | null;
  readonly slaveId: string | null;
  readonly state: string;
  readonly ports: readonly number[];
  readonly healthCheckResults: readonly HealthCheckResult[];
  readonly stagedAt?: string;
  readonly startedAt?: string;
  readonly version?: string;
  readonly zone?: string;
  readonly role: string;
}

export interface App {
  readonly id: string;
  readonly cmd?: string | null;
  readonly instances: number;
  readonly cpus: number;
  readonly mem: number;
  readonly disk: number;
  readonly role?: string;
  readonly constraints?: readonly (readonly string[])[];
  readonly healthChecks?: readonly unknown[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly version: string;
  readonly versionInfo?: { readonly lastScalingAt: string; readonly lastConfigChangeAt: string };
  readonly tasksStaged: number;
  readonly tasksRunning: number;
  readonly tasksHealthy: number;
  readonly tasksUnhealthy: number;
  readonly deployments: readonly { readonly id: string }[];
  readonly tasks?: readonly Task[];
  readonly lastTaskFailure?: { readonly state: string; readonly message: string; readonly host: string; readonly timestamp: string };
}

export interface PodContainerStatus {
  readonly name: string;
  readonly status: string;
  readonly endpoints: readonly { readonly name: string; readonly allocatedHostPort?: number }[];
}

export interface PodInstanceStatus {
  readonly id: string;
  readonly status: string;
  readonly statusSince: string;
  readonly agentHostname?: string;
  readonly agentId?: string;
  readonly agentZone?: string;
  readonly containers: readonly PodContainerStatus[];
  readonly specReference?: string;
}

export interface PodStatus {
  readonly id: string;
  readonly spec: {
    readonly id: string;
    readonly version: string;
    readonly containers: readonly { readonly name: string; readonly resources: { readonly cpus: number; readonly mem: number } }[];
    readonly scaling?: { readonly instances: number };
  };
  readonly status: string;
  readonly statusSince: string;
  readonly instances: readonly PodInstanceStatus[];
}

export interface Group {
  readonly id: string;
  readonly apps: readonly App[];
  /** Marathon embeds a group's pods as pod statuses (`{id, spec, …}`). */
  readonly pods: readonly { readonly id: string; readonly spec?: { readonly scaling?: { readonly instances: number } } }[];
  readonly groups: readonly Group[];
  readonly dependencies: readonly string[];
  readonly version: string;
  readonly enforceRole?: boolean;
}

/** pacer's `waitingFor` of a current action (`/v2/deployments?embed=waitingFor`). */
export interface WaitingFor {
  readonly unplaced?: number;
  readonly rejections?: Readonly<Record<string, number>>;
  readonly notHealthy?: number;
  readonly notReady?: number;
  readonly toReplace?: number;
}

export interface DeploymentAction {
  readonly action: string;
  readonly app?: string;
  readonly pod?: string;
  readonly waitingFor?: WaitingFor;
}

export interface Deployment {
  readonly id: string;
  readonly version: string;
  readonly affectedApps: readonly string[];
  readonly affectedPods: readonly string[];
  readonly steps: readonly { readonly actions: readonly DeploymentAction[] }[];
  readonly currentActions: readonly DeploymentAction[];
  readonly currentStep: number;
  readonly totalSteps: number;
}

export interface RejectStep {
  readonly reason: string;
  readonly declined: number;
  readonly processed: number;
}

export interface QueueEntry {
  readonly count: number;
  readonly delay: { readonly timeLeftSeconds: number; readonly overdue: boolean };
  readonly since: string;
  readonly role: string;
  readonly processedOffersSummary: {
    readonly processedOffersCount: number;
    readonly unusedOffersCount: number;
    readonly lastUnusedOfferAt?: string;
    readonly lastUsedOfferAt?: string;
    readonly rejectSummaryLastOffers: readonly RejectStep[];
    readonly rejectSummaryLaunchAttempt: readonly RejectStep[];
  };
  readonly lastUnusedOffers?: readonly {
    readonly offer: { readonly id: string; readonly agentId: string; readonly hostname: string };
    readonly reason: readonly string[];
    readonly timestamp: string;
  }[];
  readonly app?: { readonly id: string };
  readonly pod?: { readonly id: string };
}

/**
 * pacer's `heldUnhealthyKills` of `GET /v2/queue` (beside Marathon's `queue`, only while some are
 * held): an app whose unhealthy kills wait because they would take it below its kill-storm floor.
 */
export interface HeldUnhealthyKills {
  readonly appId: string;
  readonly instances: number;
  readonly floor: number;
  readonly counted: number;
  readonly floorCapacity: number;
  readonly floorSource: 'label' | 'flag' | 'minimumHealthCapacity';
  readonly message: string;
  readonly kills: readonly {
    readonly instanceId: string;
    readonly taskId: string;
    readonly reason: string;
    readonly since: string;
    readonly host: string;
  }[];
}

/** `GET /v2/queue`. */
export interface QueueBody {
  readonly queue: readonly QueueEntry[];
  readonly heldUnhealthyKills?: readonly HeldUnhealthyKills[];
}

export interface Info {
  readonly name: string;
  readonly version: string;
  readonly leader: string;
  readonly frameworkId: string | null;
  readonly marathon_config: { readonly master: string; readonly mesos_role: string; readonly features?: readonly string[] };
}

/** An event of `/v2/events`: Marathon's wire shape. */
export interface MarathonEvent {
  readonly eventType: string;
  readonly timestamp: string;
  readonly [field: string]: unknown;
}

/** `GET /pacer/v1/sim`: one model, the server's (a type-only import; nothing of src/ is bundled). */
export type { SimViewJson as SimView } from '../../../src/api/ui/sim-view';
