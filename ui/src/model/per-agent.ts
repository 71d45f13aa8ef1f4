/** Where an item runs: the agent's id (what tells agents apart) and its hostname (what the operator reads). */
export interface AgentRef {
  readonly id?: string | null;
  readonly hostname?: string | null;
}

/** One agent's items: `key` tells agents apart, `agent` is its hostname, `agentId` its id when that says more than the hostname. */
export interface AgentGroup<T> {
  readonly key: string;
  readonly agent: string;
  readonly agentId?: string;
  readonly items: T[];
}

const UNPLACED = '(unplaced)';

/**
 * Items grouped by the agent they run on, keyed by the agent's id (several agents may share a
 * hostname: `--local_agents 2` runs both on 127.0.0.1), in natural order of hostname then id;
 * items without an agent under `(unplaced)`. A group names its agent id beside the hostname unless
 * they are the same.
 */
export function groupByAgent<T>(items: readonly T[], agentOf: (item: T) => AgentRef | undefined): AgentGroup<T>[] {
  const groups = new Map<string, { agent: string; agentId?: string; items: T[] }>();
  for (const item of items) {
    const ref = agentOf(item);
    const id = ref?.id ?? undefined;
    const hostname = ref?.hostname ?? id ?? UNPLACED;
    const key = id ?? `host:${hostname}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { agent: hostname, ...(id === undefined || id === hostname ? {} : { agentId: id }), items: [] }));
    group.items.push(item);
  }
  const natural = (a: string, b: string): number => a.localeCompare(b, undefined, { numeric: true });
  return [...groups.entries()]
    .map(([key, g]) => ({ key, ...g }))
    .sort((a, b) => natural(a.agent, b.agent) || natural(a.agentId ?? '', b.agentId ?? ''));
}
