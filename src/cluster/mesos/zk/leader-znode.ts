/** The label Mesos masters give their JSON MasterInfo membership znodes (spec §1.9). */
export const JSON_INFO_PREFIX = 'json.info_';
/** The label of the protobuf MasterInfo znodes older masters (before JSON) wrote; not readable here. */
export const PROTOBUF_INFO_PREFIX = 'info_';

/**
 * The name of the leading master's znode among a group's children: the `json.info_<sequence>`
 * child with the lowest sequence number (spec §1.9: masters contend with ephemeral sequential
 * znodes, and the oldest live one leads). Sequences compare as numbers, not strings, and other
 * children (`info_…` protobuf nodes, `log_replicas`, anything else) are ignored. Undefined when
 * no master has registered. `prefix` names another group's label: pacer's own leader election
 * (src/ha/leader-election.ts) uses the same rule for its `latch-` znodes.
 */
export function leaderZnode(children: readonly string[], prefix: string = JSON_INFO_PREFIX): string | undefined {
  const named = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
  let leader: { name: string; sequence: number } | undefined;
  for (const name of children) {
    const match = named.exec(name);
    if (match === null) continue;
    const sequence = Number(match[1]);
    if (leader === undefined || sequence < leader.sequence) leader = { name, sequence };
  }
  return leader?.name;
}
