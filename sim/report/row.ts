/** A row of the timeline: an agent's lane (lane 0 carries the agent's name). */
export interface Row {
  readonly key: string;
  readonly agentId: string | null;
  readonly label: string;
}
