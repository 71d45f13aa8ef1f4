import type { OfferedPool } from '../../../scheduler/model/offer';
import type { PortRange, ScalarResources } from '../../../scheduler/model/resources';

/** One user of a group's allocation: the pod executor or one pod task. */
export interface AllocationConsumer {
  readonly resources: ScalarResources;
  readonly hostPorts: readonly number[];
}

interface Budget {
  readonly reservedFor?: string;
  readonly reservationId?: string;
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  readonly ports: readonly PortRange[];
}

const SCALARS = ['cpusMilli', 'memMilli', 'diskMilli', 'gpus'] as const;

/**
 * Splits what the core took for a whole pod instance (`LaunchOperation.allocation`: executor
 * overhead plus every container, per reservation pool) into one share per consumer, in the
 * consumers' order. Scalars are drawn from the pools in allocation order — the order the core's
 * Reserve step filled them (the role's reservations first) — and each host port goes with the
 * pool that holds it. Mesos needs this split because the executor and every task of a task group
 * carry their own resources (mesos-v1-scheduler-api.md §5.3).
 *
 * Throws when the consumers need more than the allocation holds (a core bug: the allocation is
 * the sum of exactly these consumers).
 */
export function splitAllocation(allocation: readonly OfferedPool[], consumers: readonly AllocationConsumer[]): OfferedPool[][] {
  const budget: Budget[] = allocation.map(({ volumes: _volumes, ...p }) => ({ ...p }));
  return consumers.map((consumer) => share(budget, consumer));
}

function share(budget: Budget[], consumer: AllocationConsumer): OfferedPool[] {
  const parts: Budget[] = budget.map((b) => ({
    ...(b.reservedFor === undefined ? {} : { reservedFor: b.reservedFor }),
    ...(b.reservationId === undefined ? {} : { reservationId: b.reservationId }),
    cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [],
  }));
  for (const key of SCALARS) {
    let need = consumer.resources[key];
    for (let i = 0; i < budget.length && need > 0; i++) {
      const taken = Math.min(need, budget[i][key]);
      budget[i][key] -= taken;
      parts[i][key] += taken;
      need -= taken;
    }
    if (need > 0) throw new Error(`launch group: the allocation lacks ${need} ${key} for a task or the executor`);
  }
  const ports = parts.map((): PortRange[] => []);
  for (const port of consumer.hostPorts) {
    const i = budget.findIndex((b) => b.ports.some((r) => port >= r[0] && port <= r[1]));
    if (i < 0) throw new Error(`launch group: host port ${port} is not in the allocation`);
    ports[i].push([port, port]);
  }
  return parts
    .map((p, i): OfferedPool => ({ ...p, ports: ports[i] }))
    .filter((p) => p.cpusMilli + p.memMilli + p.diskMilli + p.gpus > 0 || p.ports.length > 0);
}
