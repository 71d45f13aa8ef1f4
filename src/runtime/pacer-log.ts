import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

/** `--log_format`: one readable line per record for people, or one JSON object per line for machines. */
export type LogFormat = 'text' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/** pacer's one logger (pino, fastify's own): every line pacer writes once it runs is one record of it. */
export type PacerLog = Logger;

/**
 * `--log_level` (or Marathon's name, `--logging_level`): Marathon's values (`DebugConf.scala`: off, fatal, error, warn, info,
 * debug, trace, all; logback's names). pino has no `all` and calls `off` `silent`.
 */
export const LOGGING_LEVELS = ['off', 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'all'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

const PINO_LEVEL: Readonly<Record<LoggingLevel, pino.LevelWithSilent>> = {
  off: 'silent', fatal: 'fatal', error: 'error', warn: 'warn', info: 'info', debug: 'debug', trace: 'trace', all: 'trace',
};

/**
 * Fields that never reach a log, whoever logs them: credentials of HTTP requests (fastify logs
 * `req` with its headers on errors) and anything named like a secret. Messages carry no
 * credentials either: request lines name method, path, status, time and client only.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]',
  'headers.authorization', 'headers.cookie', 'headers["proxy-authorization"]',
  'authorization', 'password', 'secret', 'token', 'credentials',
];

/** How to build the logger. */
export interface PacerLogOptions {
  /** Default `info`. */
  readonly level?: LoggingLevel;
  /** `json`: one JSON object per line (pino's own); `text`: one readable line per record. */
  readonly format: LogFormat;
  /** Default: stderr, written synchronously (a line is out before the next statement, or an exit). */
  readonly destination?: DestinationStream;
  /** Colours in the text form (a terminal). Default false. */
  readonly colors?: boolean;
}

/**
 * The logger of a running pacer. Records carry a `component` (`api`, `scheduler`, `loop`, `mesos`,
 * `local`, `auth`, `sim`, `pacer`); decision records carry the decision reader's fields
 * (decision-line.ts `decisionFields`). The text form (pino-pretty) is
 * `HH:MM:ss.l LEVEL: component: message`, with the input and stack of a core failure below it.
 */
export function createPacerLog(options: PacerLogOptions): PacerLog {
  const destination = options.destination ?? pino.destination({ dest: 2, sync: true });
  const stream = options.format === 'json' ? destination : textStream(destination, options.colors === true);
  return pino({
    level: PINO_LEVEL[options.level ?? 'info'],
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  }, stream);
}

/** A logger that writes nothing (compositions started by tests, which pass their own when they look). */
export function silentLog(): PacerLog {
  return pino({ level: 'silent' });
}

/** The `text` form: each JSON record pino writes, made readable before it reaches `destination`. */
function textStream(destination: DestinationStream, colors: boolean): DestinationStream {
  const pretty = prettyFactory({
    colorize: colors, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', hideObject: true, messageFormat: textMessage,
  });
  return { write: (line: string) => void destination.write(pretty(line)) };
}

/** `component: [at  ]message`, then the failed input and a sim summary on lines of their own. */
function textMessage(log: Record<string, unknown>, messageKey: string): string {
  const component = typeof log.component === 'string' ? `${log.component}: ` : '';
  const at = typeof log.at === 'string' ? `${log.at}  ` : '';
  let text = `${component}${at}${String(log[messageKey] ?? '')}`;
  if (log.input !== undefined) text += `\n    input: ${JSON.stringify(log.input)}`;
  const err = log.err as { stack?: unknown } | undefined;
  if (typeof err?.stack === 'string') text += `\n${err.stack}`;
  if (typeof log.summary === 'string') text += `\n${log.summary}`;
  return text;
}
