/** A row of the timeline: an agent's lane (lane 0 carries the agent's name), or a run spec's unplaced instances. */
export interface Row {
  readonly key: string;
  readonly agentId: string | null;
  readonly label: string;
  /** The agent's lane (0 for the first, and for a row of unplaced instances). */
  readonly lane: number;
}
