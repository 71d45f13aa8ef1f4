import type { Decision } from './decision-reader';

/** `--log_format`: readable lines for people, or one JSON object per line for machines. */
export type LogFormat = 'text' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/**
 * The machine fields of a decision, in a fixed order, without the sentence: what a structured
 * logger (pino) takes as the object beside its message.
 */
export function decisionFields(decision: Decision): Record<string, string> {
  const fields: Record<string, string> = { decision: decision.kind };
  for (const key of ['runSpecId', 'instanceId', 'agentId', 'condition', 'reason', 'deploymentId'] as const) {
    const value = decision[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/**
 * One terminal line (without the newline) for a decision at `time`: `<time>  <sentence>`, or with
 * `json` `{"time":…,"decision":…,…,"msg":<sentence>}`. Never a whole plan or group tree.
 */
export function decisionLine(decision: Decision, time: string, format: LogFormat): string {
  if (format === 'json') return JSON.stringify({ time, ...decisionFields(decision), msg: decision.text });
  return `${time}  ${decision.text}`;
}
