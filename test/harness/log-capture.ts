import { createPacerLog, type LoggingLevel, type LogFormat, type PacerLog } from '../../src/runtime/pacer-log';

/** A pacer log writing into memory: what it wrote, as lines and (for `json`) as records. */
export interface CapturedLog {
  readonly log: PacerLog;
  /** Every line written so far (without the newline). */
  lines(): string[];
  /** Every line as a JSON record (format `json` only). */
  records(): Record<string, unknown>[];
}

/** The logger pacer runs with (runtime/pacer-log.ts), at `level`, in `format`, into memory. */
export function captureLog(format: LogFormat = 'json', level: LoggingLevel = 'info'): CapturedLog {
  let text = '';
  const log = createPacerLog({ format, level, destination: { write: (chunk: string) => void (text += chunk) } });
  const lines = (): string[] => text.split('\n').filter((l) => l !== '');
  return { log, lines, records: () => lines().map((l) => JSON.parse(l) as Record<string, unknown>) };
}
