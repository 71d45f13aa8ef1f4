import { TASK_FAILURE_BOUNDS, type TaskFailure } from '../../scheduler/model/task-failure';
import { TASK_STATES, type TaskState } from '../../scheduler/model/task-state';
import { type JsonSchema, defined } from './record-schema';

/**
 * How a run spec's last task failure is stored (store format 7), under its run spec id: Marathon's
 * `TaskFailure` fields (its TaskFailureRepository keeps one per app), mapped field by field from
 * and to the core's {@link TaskFailure}, so that renaming a field of the model is a compile error
 * here. A change to this shape needs a new store format version and a migration.
 */
export interface StoredTaskFailureV1 {
  readonly appId: string;
  readonly taskId: string;
  readonly state: TaskState;
  readonly message: string;
  readonly host: string;
  readonly version: string;
  readonly timestamp: string;
  readonly slaveId?: string;
}

/** The stored record of `f` (a fresh object). */
export function taskFailureToStored(f: TaskFailure): StoredTaskFailureV1 {
  return {
    appId: f.appId, taskId: f.taskId, state: f.state, message: f.message, host: f.host, version: f.version, timestamp: f.timestamp,
    ...defined('slaveId', f.slaveId),
  };
}

/** The core's task failure of a record that passed {@link STORED_TASK_FAILURE_SCHEMA}. */
export function taskFailureFromStored(s: StoredTaskFailureV1): TaskFailure {
  return {
    appId: s.appId, host: s.host, message: s.message, state: s.state, taskId: s.taskId, timestamp: s.timestamp, version: s.version,
    ...defined('slaveId', s.slaveId),
  };
}

const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });

/**
 * The JSON Schema every stored task failure is checked against on load: closed, every text within
 * {@link TASK_FAILURE_BOUNDS} (the core stores none beyond them), the state one of the task states.
 */
export const STORED_TASK_FAILURE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['appId', 'taskId', 'state', 'message', 'host', 'version', 'timestamp'],
  additionalProperties: false,
  properties: {
    appId: { ...text(TASK_FAILURE_BOUNDS.appId), minLength: 1 },
    taskId: { ...text(TASK_FAILURE_BOUNDS.taskId), minLength: 1 },
    state: { enum: [...TASK_STATES] },
    message: text(TASK_FAILURE_BOUNDS.message),
    host: text(TASK_FAILURE_BOUNDS.host),
    version: text(TASK_FAILURE_BOUNDS.version),
    timestamp: text(TASK_FAILURE_BOUNDS.timestamp),
    slaveId: text(TASK_FAILURE_BOUNDS.slaveId),
  },
};
