import type { Enum } from 'protobufjs';
import t from 'tap';
import { decodeCall, decodeEvent, encodeCall, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type {
  CallType,
  ContainerType,
  DiscoveryVisibility,
  DockerNetwork,
  EventType,
  ExecutorType,
  FrameworkCapabilityType,
  HealthCheckType,
  ImageType,
  MesosFormat,
  NetworkProtocol,
  OfferOperationType,
  ReservationType,
  TaskState,
  TaskStatusReason,
  TaskStatusSource,
  ValueType,
  VolumeMode,
} from '../../../../src/cluster/mesos/codec/mesos-model';
import { mesosRoot } from '../../../../src/cluster/mesos/proto/mesos-root';
import { fullCall, fullEvent } from './full-model-builders';

const FORMATS: MesosFormat[] = ['protobuf', 'json'];

t.test('every field of the Call model exists in the .proto subset (full round trip)', async (t) => {
  for (const format of FORMATS) t.strictSame(decodeCall(encodeCall(fullCall(), format), format), fullCall(), format);
});

t.test('every field of the Event model exists in the .proto subset (full round trip)', async (t) => {
  for (const format of FORMATS) t.strictSame(decodeEvent(encodeEvent(fullEvent(), format), format), fullEvent(), format);
});

/**
 * Lists every member of a string union; the compiler rejects a list that misses one, so the test
 * below compares the complete model enums with the schema's.
 */
function allOf<T extends string>() {
  return <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : 'a member is missing')): readonly string[] => list;
}

const ENUMS: { proto: string; model: readonly string[] }[] = [
  { proto: 'mesos.v1.scheduler.Call.Type', model: allOf<CallType>()(['UNKNOWN', 'SUBSCRIBE', 'TEARDOWN', 'ACCEPT', 'DECLINE', 'REVIVE', 'KILL', 'SHUTDOWN', 'ACKNOWLEDGE', 'RECONCILE', 'MESSAGE', 'REQUEST', 'SUPPRESS', 'ACCEPT_INVERSE_OFFERS', 'DECLINE_INVERSE_OFFERS', 'ACKNOWLEDGE_OPERATION_STATUS', 'RECONCILE_OPERATIONS', 'UPDATE_FRAMEWORK']) },
  { proto: 'mesos.v1.scheduler.Event.Type', model: allOf<EventType>()(['UNKNOWN', 'SUBSCRIBED', 'OFFERS', 'RESCIND', 'UPDATE', 'MESSAGE', 'FAILURE', 'ERROR', 'HEARTBEAT', 'INVERSE_OFFERS', 'RESCIND_INVERSE_OFFER', 'UPDATE_OPERATION_STATUS']) },
  { proto: 'mesos.v1.TaskState', model: allOf<TaskState>()(['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING', 'TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED', 'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_UNREACHABLE', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR', 'TASK_UNKNOWN']) },
  { proto: 'mesos.v1.TaskStatus.Source', model: allOf<TaskStatusSource>()(['SOURCE_MASTER', 'SOURCE_AGENT', 'SOURCE_EXECUTOR']) },
  {
    proto: 'mesos.v1.TaskStatus.Reason',
    model: allOf<TaskStatusReason>()([
      'REASON_COMMAND_EXECUTOR_FAILED', 'REASON_CONTAINER_LAUNCH_FAILED', 'REASON_CONTAINER_LIMITATION', 'REASON_CONTAINER_LIMITATION_DISK',
      'REASON_CONTAINER_LIMITATION_MEMORY', 'REASON_CONTAINER_PREEMPTED', 'REASON_CONTAINER_UPDATE_FAILED', 'REASON_MAX_COMPLETION_TIME_REACHED',
      'REASON_EXECUTOR_REGISTRATION_TIMEOUT', 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT', 'REASON_EXECUTOR_TERMINATED', 'REASON_EXECUTOR_UNREGISTERED',
      'REASON_FRAMEWORK_REMOVED', 'REASON_GC_ERROR', 'REASON_INVALID_FRAMEWORKID', 'REASON_INVALID_OFFERS', 'REASON_IO_SWITCHBOARD_EXITED',
      'REASON_MASTER_DISCONNECTED', 'REASON_RECONCILIATION', 'REASON_RESOURCES_UNKNOWN', 'REASON_AGENT_DISCONNECTED', 'REASON_AGENT_REMOVED',
      'REASON_AGENT_REMOVED_BY_OPERATOR', 'REASON_AGENT_REREGISTERED', 'REASON_AGENT_RESTARTED', 'REASON_AGENT_UNKNOWN', 'REASON_AGENT_DRAINING',
      'REASON_TASK_CHECK_STATUS_UPDATED', 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED', 'REASON_TASK_GROUP_INVALID', 'REASON_TASK_GROUP_UNAUTHORIZED',
      'REASON_TASK_INVALID', 'REASON_TASK_KILLED_DURING_LAUNCH', 'REASON_TASK_UNAUTHORIZED', 'REASON_TASK_UNKNOWN',
    ]),
  },
  { proto: 'mesos.v1.FrameworkInfo.Capability.Type', model: allOf<FrameworkCapabilityType>()(['UNKNOWN', 'REVOCABLE_RESOURCES', 'TASK_KILLING_STATE', 'GPU_RESOURCES', 'SHARED_RESOURCES', 'PARTITION_AWARE', 'MULTI_ROLE', 'RESERVATION_REFINEMENT', 'REGION_AWARE']) },
  { proto: 'mesos.v1.Offer.Operation.Type', model: allOf<OfferOperationType>()(['UNKNOWN', 'LAUNCH', 'RESERVE', 'UNRESERVE', 'CREATE', 'DESTROY', 'LAUNCH_GROUP', 'GROW_VOLUME', 'SHRINK_VOLUME', 'CREATE_DISK', 'DESTROY_DISK']) },
  { proto: 'mesos.v1.HealthCheck.Type', model: allOf<HealthCheckType>()(['UNKNOWN', 'COMMAND', 'HTTP', 'TCP']) },
  { proto: 'mesos.v1.Value.Type', model: allOf<ValueType>()(['SCALAR', 'RANGES', 'SET', 'TEXT']) },
  { proto: 'mesos.v1.Resource.ReservationInfo.Type', model: allOf<ReservationType>()(['UNKNOWN', 'STATIC', 'DYNAMIC']) },
  { proto: 'mesos.v1.ExecutorInfo.Type', model: allOf<ExecutorType>()(['UNKNOWN', 'DEFAULT', 'CUSTOM']) },
  { proto: 'mesos.v1.ContainerInfo.Type', model: allOf<ContainerType>()(['DOCKER', 'MESOS']) },
  { proto: 'mesos.v1.ContainerInfo.DockerInfo.Network', model: allOf<DockerNetwork>()(['HOST', 'BRIDGE', 'NONE', 'USER']) },
  { proto: 'mesos.v1.Image.Type', model: allOf<ImageType>()(['APPC', 'DOCKER']) },
  { proto: 'mesos.v1.Volume.Mode', model: allOf<VolumeMode>()(['RW', 'RO']) },
  { proto: 'mesos.v1.NetworkInfo.Protocol', model: allOf<NetworkProtocol>()(['IPv4', 'IPv6']) },
  { proto: 'mesos.v1.DiscoveryInfo.Visibility', model: allOf<DiscoveryVisibility>()(['FRAMEWORK', 'CLUSTER', 'EXTERNAL']) },
];

t.test('the model enums name exactly the values of the schema enums', async (t) => {
  for (const { proto, model } of ENUMS) {
    const schemaEnum = mesosRoot.lookupEnum(proto) as Enum;
    t.same([...model].sort(), Object.keys(schemaEnum.values).sort(), proto);
  }
});

t.test('enum numbers follow the reference tables (spec §2.0, §3, §6)', async (t) => {
  const numbers = (name: string): Record<string, number> => mesosRoot.lookupEnum(name).values;
  const taskState = numbers('mesos.v1.TaskState');
  t.same([taskState.TASK_STARTING, taskState.TASK_STAGING, taskState.TASK_KILLING, taskState.TASK_UNKNOWN], [0, 6, 8, 13]);
  const callType = numbers('mesos.v1.scheduler.Call.Type');
  t.same([callType.REVIVE, callType.SUPPRESS, callType.UPDATE_FRAMEWORK], [5, 12, 17]);
  const reason = numbers('mesos.v1.TaskStatus.Reason');
  t.same([reason.REASON_CONTAINER_LIMITATION_MEMORY, reason.REASON_AGENT_REREGISTERED, reason.REASON_AGENT_DRAINING], [8, 32, 34]);
  const call = mesosRoot.lookupType('mesos.v1.scheduler.Call');
  t.same([call.fields.revive?.id, call.fields.suppress?.id, call.fields.update_framework?.id], [15, 16, 19], 'sub-message fields are not the type numbers');
  const attribute = mesosRoot.lookupType('mesos.v1.Attribute');
  t.same([attribute.fields.text?.id, attribute.fields.set?.id], [5, 6], 'Attribute text/set are 5/6 (Resource set is 5)');
});
