import { randomBytes } from 'node:crypto';
import { decodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Offer, TaskState, TaskStatus } from '../../../../src/cluster/mesos/codec/mesos-model';
import { readSample } from '../codec/sample-files';

/**
 * The offer recorded from a real master (pb/events/003-OFFERS.bin: one agent, cpus 2, mem 4096,
 * disk 10000, ports 31000-32000, attributes rack/zone, allocation role `*`), with its ids
 * replaced so that it belongs to the fake master's framework.
 */
export function sampleOffer(frameworkId: string, offerId: string, agentId = 'agent-S0'): Offer {
  const recorded = decodeEvent(readSample('pb/events/003-OFFERS.bin'), 'protobuf').offers?.offers?.[0];
  if (recorded === undefined) throw new Error('the recorded OFFERS sample holds no offer');
  return { ...recorded, id: { value: offerId }, frameworkId: { value: frameworkId }, agentId: { value: agentId } };
}

/** A TaskStatus as an agent sends it (SOURCE_EXECUTOR, with a uuid) unless told otherwise. */
export function taskStatus(taskId: string, state: TaskState, overrides: Partial<TaskStatus> = {}): TaskStatus {
  return {
    taskId: { value: taskId },
    state,
    agentId: { value: 'agent-S0' },
    source: 'SOURCE_EXECUTOR',
    uuid: new Uint8Array(randomBytes(16)),
    timestamp: Date.now() / 1000,
    ...overrides,
  };
}
