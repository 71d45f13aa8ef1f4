import { TASK_STATES } from '../../scheduler/model/task-state';
import type { JsonSchema } from '../../store/records/record-schema';

const NUMBER: JsonSchema = { type: 'number' };
const STRING: JsonSchema = { type: 'string' };
const RANGE: JsonSchema = { type: 'array', items: NUMBER, minItems: 2, maxItems: 2 };
const closed = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required, properties, additionalProperties: false });

const TASK = closed(['taskId', 'runSpecId', 'instanceId', 'sandbox', 'hostPorts', 'resources', 'killGracePeriodMs', 'launchedAtMs', 'env', 'state'], {
  taskId: STRING, runSpecId: STRING, instanceId: STRING, containerName: STRING, pid: { type: 'integer', minimum: 1 }, startTime: STRING,
  sandbox: { type: 'string', minLength: 1 }, hostPorts: { type: 'array', items: NUMBER },
  resources: closed(['cpusMilli', 'memMilli', 'diskMilli', 'gpus'], { cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER }),
  killGracePeriodMs: NUMBER, launchedAtMs: NUMBER,
  healthCheck: closed(['check'], { check: { type: 'object' }, port: NUMBER }),
  env: { type: 'object', additionalProperties: STRING }, state: { enum: [...TASK_STATES] }, healthy: { type: 'boolean' },
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
      reservedFor: STRING, cpusMilli: NUMBER, memMilli: NUMBER, diskMilli: NUMBER, gpus: NUMBER, ports: { type: 'array', items: RANGE },
    }),
  },
  killDeadlineMs: NUMBER, tasks: { type: 'array', items: TASK },
});
