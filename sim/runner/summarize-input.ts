import type { SchedulerInput } from '../../src/scheduler/model/inputs';

/**
 * A compact, fixed-order trace record of one input to the core: enough to read and to diff
 * traces, without whole run specs or offers.
 */
export function summarizeInput(input: SchedulerInput): Record<string, unknown> {
  switch (input.type) {
    case 'offers':
      return { type: 'offers', offers: input.offers.map((o) => o.offerId) };
    case 'status': {
      const s = input.status;
      return { type: 'status', task: s.taskId, state: s.state, reason: s.reason ?? null, healthy: s.healthy ?? null, uuid: s.uuid ?? null };
    }
    case 'timer':
      return { type: 'timer', ...input.timer };
    case 'probeResult':
      return { type: 'probeResult', ...input.observation };
    case 'putRunSpec':
      return { type: 'putRunSpec', id: input.spec.id, version: input.spec.version, instances: input.spec.instances };
    default:
      return { ...input };
  }
}
