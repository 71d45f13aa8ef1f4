import { TASK_STATES } from '../../scheduler/model/task-state';
import type { JsonSchema } from '../../store/records/record-schema';

const NUMBER: JsonSchema = { type: 'number' };
const STRING: JsonSchema = { type: 'string' };
const RANGE: JsonSchema = { type: 'array', items: NUMBER, minItems: 2, maxItems: 2 };
const closed = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required, properties, additionalProperties: false });

const BOOLEAN: JsonSchema = { type: 'boolean' };
const COMMAND: JsonSchema = { oneOf: [closed(['shell'], { shell: STRING }), closed(['argv'], { argv: { type: 'array', items: STRING } })] };
/** A task's `check` as the core resolved it (`LaunchCheck`). */
const CHECK = closed(['kind', 'delayMs', 'intervalMs', 'timeoutMs'], {
  kind: { enum: ['http', 'tcp', 'command'] }, delayMs: NUMBER, intervalMs: NUMBER, timeoutMs: NUMBER,
  port: NUMBER, containerPort: NUMBER, path: STRING, command: COMMAND,
});
/** The check status last reported (`CheckStatus`). */
const CHECK_STATUS = closed([], {
  http: closed([], { statusCode: NUMBER }), tcp: closed([], { succeeded: BOOLEAN }), command: closed([], { exitCode: NUMBER }),
});

const TASK = closed(['taskId', 'runSpecId', 'instanceId', 'sandbox', 'hostPorts', 'resources', 'killGracePeriodMs', 'launchedAtMs', 'env', 'state'], {
  taskId: STRING, runSpecId: STRING, instanceId: STRING, containerName: STRING, pid: { type: 'integer', minimum: 1 }, startTime: STRING,
  sandbox: { type: 'string', minLength: 1 }, hostPorts: { type: 'array', items: NUMBER },
  resources: closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus'], { cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER }),
  killGracePeriodMs: NUMBER, launchedAtMs: NUMBER,
  healthCheck: closed(['check'], { check: { type: 'object' }, port: NUMBER }),
  env: { type: 'object', additionalProperties: STRING }, state: { enum: [...TASK_STATES] }, healthy: { type: 'boolean' },
  check: CHECK, checkStatus: CHECK_STATUS,
});

/**
 * The JSON Schema of a `StoredExecutorV1` (stored-executor.ts), closed: an unknown or missing
 * field fails. Its validator is compiled when pacer is built (`src/validation/validator-modules.ts`).
 */
export const STORED_EXECUTOR_SCHEMA: JsonSchema = closed(['executorKey', 'executorId', 'agentId', 'group', 'allocation', 'tasks'], {
  executorKey: STRING, executorId: STRING, agentId: STRING, group: { type: 'boolean' },
  allocation: {
    type: 'array',
    items: closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus', 'ports'], {
      reservedFor: STRING, reservationId: STRING,
      volumes: { type: 'array', items: closed(['persistenceId', 'containerPath', 'diskMilli'], { persistenceId: STRING, containerPath: STRING, diskMilli: NUMBER }) },
      cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER, ports: { type: 'array', items: RANGE },
    }),
  },
  killDeadlineMs: NUMBER, tasks: { type: 'array', items: TASK },
});

/** Longest id, role or container path a stored reservation may hold. */
const MAX_TEXT_CHARS = 4096;
/** Most persistent volumes, and port ranges, one stored reservation may hold. */
const MAX_ITEMS = 1024;
const TEXT: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_TEXT_CHARS };
const AMOUNT: JsonSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
const PORT: JsonSchema = { type: 'integer', minimum: 0, maximum: 65_535 };
const PORT_RANGE: JsonSchema = { type: 'array', items: PORT, minItems: 2, maxItems: 2 };
const VOLUME = closed(['persistenceId', 'containerPath', 'diskMilli'], { persistenceId: TEXT, containerPath: TEXT, diskMilli: AMOUNT });

/**
 * The JSON Schema of a `StoredLocalReservationV1` (stored-reservation.ts): a dynamic reservation
 * of the master model, closed and bounded (non-empty texts of at most 4096 characters, amounts
 * non-negative integers, ports 0–65535, at most 1024 volumes and port ranges; the role never
 * `*`). Compiled when pacer is built, as {@link STORED_EXECUTOR_SCHEMA}.
 */
export const STORED_RESERVATION_SCHEMA: JsonSchema = closed(['v', 'agentId', 'role', 'reservationId', 'resources', 'ports', 'volumes'], {
  v: { const: 1 },
  agentId: TEXT, role: { ...TEXT, not: { const: '*' } }, reservationId: TEXT,
  resources: closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus'], { cpusMilli: AMOUNT, memMilli: AMOUNT, diskMilli: AMOUNT, gpus: AMOUNT }),
  ports: { type: 'array', items: PORT_RANGE, maxItems: MAX_ITEMS },
  volumes: { type: 'array', items: VOLUME, maxItems: MAX_ITEMS },
});
