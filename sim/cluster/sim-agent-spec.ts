import type { AgentAttribute } from '../../src/scheduler/model/agent';
import type { PortRange } from '../../src/scheduler/model/resources';

/** Resources in natural units (cpus, MiB, MiB, count, port ranges). */
export interface SimResources {
  readonly cpus: number;
  readonly mem: number;
  readonly disk: number;
  readonly gpus: number;
  readonly ports: readonly PortRange[];
}

/** One simulated agent: identity, fault domain, attributes, unreserved and statically reserved resources. */
export interface SimAgentSpec {
  readonly agentId: string;
  readonly hostname: string;
  readonly region?: string;
  readonly zone?: string;
  readonly attributes: readonly AgentAttribute[];
  /** Unreserved (`*`) resources. */
  readonly resources: SimResources;
  /** Static reservations, one entry per role. */
  readonly reserved: readonly ({ readonly role: string } & SimResources)[];
}
