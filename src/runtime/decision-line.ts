import type { Decision } from './decision-reader';

/**
 * The machine fields of a decision, in a fixed order, without the sentence: what the logger
 * (pino) takes as the object beside its message (decision-log.ts).
 */
export function decisionFields(decision: Decision): Record<string, string | number> {
  const fields: Record<string, string | number> = { decision: decision.kind };
  for (const key of ['runSpecId', 'instanceId', 'agentId', 'condition', 'reason', 'deploymentId', 'delayMs'] as const) {
    const value = decision[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}
