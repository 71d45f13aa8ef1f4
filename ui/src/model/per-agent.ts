/** Items grouped by the agent they run on, agents by name; items without an agent under `(unplaced)`. */
export function groupByAgent<T>(items: readonly T[], agentOf: (item: T) => string | null | undefined): { readonly agent: string; readonly items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const agent = agentOf(item) ?? '(unplaced)';
    let list = groups.get(agent);
    if (list === undefined) groups.set(agent, (list = []));
    list.push(item);
  }
  return [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true })).map(([agent, list]) => ({ agent, items: list }));
}
