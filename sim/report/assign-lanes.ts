import type { Row } from './row';

/** Rows of the timeline, and where each instance is drawn. */
export interface Lanes {
  /** Every agent's rows in agent order (an agent without instances has one). */
  readonly rows: readonly Row[];
  /** The row of an instance's stretch on an agent. */
  rowOf(agentId: string, instanceId: string): string;
  /** Every row of an agent. */
  rowsOf(agentId: string): readonly string[];
}

/**
 * Lays out the timeline: each agent gets as many lanes as it has instances at once (an instance
 * keeps its lane on that agent for as long as it is there; a lane is reused once the instance
 * before it left), so stretches never overlap. `agents` in the order to show them; agents only
 * the stretches name are appended. (Instances waiting for an offer have no agent: fold-unplaced.ts.)
 */
export function assignLanes(agents: readonly string[], stretches: readonly { instanceId: string; agentId: string; fromMs: number; toMs: number }[]): Lanes {
  const spans = new Map<string, Map<string, { fromMs: number; toMs: number }>>();
  for (const s of stretches) {
    const agent = s.agentId;
    let byInstance = spans.get(agent);
    if (byInstance === undefined) spans.set(agent, (byInstance = new Map()));
    const span = byInstance.get(s.instanceId);
    byInstance.set(s.instanceId, span === undefined ? { fromMs: s.fromMs, toMs: s.toMs } : { fromMs: Math.min(span.fromMs, s.fromMs), toMs: Math.max(span.toMs, s.toMs) });
  }
  const order = [...agents, ...[...spans.keys()].filter((a) => !agents.includes(a))];
  const rows: Row[] = [];
  const laneOf = new Map<string, string>();
  const rowsByAgent = new Map<string, string[]>();
  for (const agent of order) {
    const laneEnds: number[] = [];
    const sorted = [...(spans.get(agent) ?? new Map()).entries()].sort((a, b) => a[1].fromMs - b[1].fromMs || (a[0] < b[0] ? -1 : 1));
    for (const [instanceId, span] of sorted) {
      let lane = laneEnds.findIndex((end) => end <= span.fromMs);
      if (lane === -1) lane = laneEnds.push(0) - 1;
      laneEnds[lane] = span.toMs;
      laneOf.set(`${agent}\u0000${instanceId}`, `${agent}#${lane}`);
    }
    const keys = Array.from({ length: Math.max(1, laneEnds.length) }, (_, lane) => `${agent}#${lane}`);
    rowsByAgent.set(agent, keys);
    keys.forEach((key, lane) => rows.push({ key, agentId: agent, label: lane === 0 ? agent : '', lane }));
  }
  return {
    rows,
    rowOf: (agentId, instanceId) => laneOf.get(`${agentId}\u0000${instanceId}`) ?? `${agentId}#0`,
    rowsOf: (agentId) => rowsByAgent.get(agentId) ?? [],
  };
}
