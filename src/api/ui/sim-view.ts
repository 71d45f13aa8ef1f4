/**
 * `GET /pacer/v1/sim`: what the simulated cluster of `--cluster sim` looks like now. pacer's own,
 * read-only, outside Marathon's `/v2` (a Marathon client never sees it): the web UI shows it on its
 * "Simulation" page. Only served over `--cluster sim`; elsewhere the path is an unknown route (404).
 * {@link SIM_VIEW_SCHEMA} is its JSON Schema (also the route's response schema); docs/web-ui.md
 * documents it.
 */
export interface SimViewJson {
  readonly workload: SimWorkloadJson;
  /** Virtual time: ms since the run started, and the virtual instant (ISO 8601). */
  readonly virtualTime: { readonly elapsedMs: number; readonly now: string };
  /** The agents not removed, by id. */
  readonly agents: readonly SimAgentJson[];
  /** The workload's fault steps (partition, heal, killAgent, addAgents), in timeline order. */
  readonly faults: readonly SimFaultJson[];
}

/** The workload file that drives the run. */
export interface SimWorkloadJson {
  readonly name: string;
  readonly description?: string;
  readonly seed: number;
  /** The workload's own duration (virtual ms); the cluster keeps running after it. */
  readonly durationMs: number;
  /** Virtual ms per wall-clock ms (`--speed`). */
  readonly speed: number;
  /** `running` until the duration has passed, then whether every expectation held. */
  readonly verdict: 'running' | 'passed' | 'failed';
  /** Invariant violations that stopped the run (empty while all hold). */
  readonly violations: readonly string[];
}

/** One resource as used / total of an agent's pool. */
export interface SimAmountJson {
  readonly used: number;
  readonly total: number;
}

/**
 * An agent's unreserved pool (`role: "*"`), its static reservation for one role, or a resident
 * instance's dynamic reservation (`reservationId`, the instance's id).
 */
export interface SimPoolJson {
  readonly role: string;
  readonly reservationId?: string;
  readonly cpus: SimAmountJson;
  /** MiB. */
  readonly mem: SimAmountJson;
  /** MiB. */
  readonly disk: SimAmountJson;
  readonly gpus: SimAmountJson;
  /** Port counts. */
  readonly ports: SimAmountJson;
}

/** One simulated agent. */
export interface SimAgentJson {
  readonly agentId: string;
  readonly hostname: string;
  readonly region?: string;
  readonly zone?: string;
  /** Attributes as constraints see them (Mesos text format). */
  readonly attributes: Readonly<Record<string, string>>;
  /** Where the agent stands with the master. */
  readonly phase: 'connected' | 'disconnected' | 'unreachable' | 'removed';
  /** The host was killed (`killAgent`): nothing on it runs any more. */
  readonly dead: boolean;
  /** Tasks alive on the agent (including those the scheduler cannot see while partitioned). */
  readonly tasks: number;
  readonly pools: readonly SimPoolJson[];
}

/** One fault step of the workload's timeline. */
export interface SimFaultJson {
  /** Virtual ms since the start of the run. */
  readonly atMs: number;
  readonly kind: 'partition' | 'heal' | 'killAgent' | 'addAgents';
  readonly agentIds: readonly string[];
  /** Whether the virtual clock has passed it. */
  readonly done: boolean;
}

const amount = {
  type: 'object', additionalProperties: false, required: ['used', 'total'],
  properties: { used: { type: 'number' }, total: { type: 'number' } },
} as const;

/** The JSON Schema (draft 7) of {@link SimViewJson}. */
export const SIM_VIEW_SCHEMA = {
  type: 'object', additionalProperties: false, required: ['workload', 'virtualTime', 'agents', 'faults'],
  properties: {
    workload: {
      type: 'object', additionalProperties: false,
      required: ['name', 'seed', 'durationMs', 'speed', 'verdict', 'violations'],
      properties: {
        name: { type: 'string' }, description: { type: 'string' }, seed: { type: 'integer' },
        durationMs: { type: 'number' }, speed: { type: 'number' },
        verdict: { enum: ['running', 'passed', 'failed'] },
        violations: { type: 'array', items: { type: 'string' } },
      },
    },
    virtualTime: {
      type: 'object', additionalProperties: false, required: ['elapsedMs', 'now'],
      properties: { elapsedMs: { type: 'number' }, now: { type: 'string' } },
    },
    agents: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false,
        required: ['agentId', 'hostname', 'attributes', 'phase', 'dead', 'tasks', 'pools'],
        properties: {
          agentId: { type: 'string' }, hostname: { type: 'string' }, region: { type: 'string' }, zone: { type: 'string' },
          attributes: { type: 'object', additionalProperties: { type: 'string' } },
          phase: { enum: ['connected', 'disconnected', 'unreachable', 'removed'] },
          dead: { type: 'boolean' }, tasks: { type: 'integer' },
          pools: {
            type: 'array',
            items: {
              type: 'object', additionalProperties: false, required: ['role', 'cpus', 'mem', 'disk', 'gpus', 'ports'],
              properties: { role: { type: 'string' }, reservationId: { type: 'string' }, cpus: amount, mem: amount, disk: amount, gpus: amount, ports: amount },
            },
          },
        },
      },
    },
    faults: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['atMs', 'kind', 'agentIds', 'done'],
        properties: {
          atMs: { type: 'number' }, kind: { enum: ['partition', 'heal', 'killAgent', 'addAgents'] },
          agentIds: { type: 'array', items: { type: 'string' } }, done: { type: 'boolean' },
        },
      },
    },
  },
} as const;
