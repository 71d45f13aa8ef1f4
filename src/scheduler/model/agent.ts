import type { PortRange } from './resources';

/**
 * An agent attribute as the resource manager reports it. Constraint matching compares attributes
 * as strings in the resource manager's format (see constraints/format-attribute.ts).
 */
export type AgentAttribute =
  | { readonly name: string; readonly type: 'text'; readonly text: string }
  | { readonly name: string; readonly type: 'scalar'; readonly scalar: number }
  | { readonly name: string; readonly type: 'ranges'; readonly ranges: readonly PortRange[] }
  | { readonly name: string; readonly type: 'set'; readonly set: readonly string[] };

/** What the core knows of an agent from an offer: identity, fault domain and attributes. */
export interface AgentInfo {
  readonly agentId: string;
  readonly hostname: string;
  readonly region?: string;
  readonly zone?: string;
  readonly attributes: readonly AgentAttribute[];
}
