/**
 * A command as Mesos runs it (Marathon's `mesosCommand.raml`): through the shell, or an argv
 * without one.
 */
export type MesosCommand = { readonly shell: string } | { readonly argv: readonly string[] };

/**
 * Marathon's `check` of an app (`check.raml` `AppCheck`): a Mesos check whose result is reported,
 * never acted upon (unlike health checks). Kept as given (echoed as given); the launcher resolves
 * it into the task's launch (launcher/launch-check.ts), the cluster runs it, and the task shows
 * its latest result ({@link CheckResult}).
 */
export interface AppCheck {
  readonly http?: { readonly portIndex?: number; readonly port?: number; readonly path?: string; readonly scheme?: string };
  readonly tcp?: { readonly portIndex?: number; readonly port?: number };
  readonly exec?: { readonly command: MesosCommand };
  readonly intervalSeconds?: number;
  readonly timeoutSeconds?: number;
  readonly delaySeconds?: number;
}

/** Marathon's `check` of a pod container (`check.raml` `Check`): like {@link AppCheck}, by endpoint name. */
export interface PodCheck {
  readonly http?: { readonly endpoint: string; readonly path?: string; readonly scheme?: string };
  readonly tcp?: { readonly endpoint: string };
  readonly exec?: { readonly command: MesosCommand };
  readonly intervalSeconds?: number;
  readonly timeoutSeconds?: number;
  readonly delaySeconds?: number;
}

/** Marathon's defaults of a check's timing (`check.raml`; Marathon's `Check` object): every 60 s, 20 s timeout, first after 15 s. */
export const CHECK_DEFAULT_SECONDS = { intervalSeconds: 60, timeoutSeconds: 20, delaySeconds: 15 } as const;

/**
 * The latest result of a task's check, as Marathon shows it (`checkResult` of the task JSON,
 * `check.raml` `CheckStatus`; its CheckConversion of a Mesos `CheckStatusInfo`): exactly one of
 * the three, with its value — the HTTP status code of the answer, whether the TCP connection
 * opened, the command's exit code. A check without a result yet (Mesos's empty `CheckStatusInfo`:
 * not run yet, timed out, or failed to run) is no CheckResult at all.
 */
export type CheckResult =
  | { readonly http: { readonly statusCode: number } }
  | { readonly tcp: { readonly succeeded: boolean } }
  | { readonly command: { readonly exitCode: number } };

/**
 * A check's status as a cluster reports it (Mesos `TaskStatus.check_status`, a `CheckStatusInfo`):
 * the kind's sub-message, whose value is absent while there is no result (mesos-v1-scheduler-api.md
 * §5.5: "a present but empty sub-message means no result yet / timed out").
 */
export interface CheckStatus {
  readonly http?: { readonly statusCode?: number };
  readonly tcp?: { readonly succeeded?: boolean };
  readonly command?: { readonly exitCode?: number };
}

/**
 * The result a check status shows (Marathon's TaskConversion: the first of command, tcp, http that
 * has a value), or undefined when it shows none. Status codes outside 0..2^32-1 and exit codes
 * outside int32 (not what Mesos sends) show none.
 */
export function checkResultOf(status: CheckStatus): CheckResult | undefined {
  const exitCode = status.command?.exitCode;
  if (exitCode !== undefined && Number.isInteger(exitCode) && exitCode >= -2147483648 && exitCode <= 2147483647) return { command: { exitCode } };
  const succeeded = status.tcp?.succeeded;
  if (typeof succeeded === 'boolean') return { tcp: { succeeded } };
  const statusCode = status.http?.statusCode;
  if (statusCode !== undefined && Number.isInteger(statusCode) && statusCode >= 0 && statusCode <= 4294967295) return { http: { statusCode } };
  return undefined;
}

/** Whether two results are the same (undefined: none). */
export function sameCheckResult(a: CheckResult | undefined, b: CheckResult | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if ('http' in a) return 'http' in b && a.http.statusCode === b.http.statusCode;
  if ('tcp' in a) return 'tcp' in b && a.tcp.succeeded === b.tcp.succeeded;
  return 'command' in b && a.command.exitCode === b.command.exitCode;
}

/** Whether two check statuses say the same (each kind's presence and value), as Mesos compares them before reporting a change. */
export function sameCheckStatus(a: CheckStatus, b: CheckStatus): boolean {
  return (a.http === undefined) === (b.http === undefined) && a.http?.statusCode === b.http?.statusCode
    && (a.tcp === undefined) === (b.tcp === undefined) && a.tcp?.succeeded === b.tcp?.succeeded
    && (a.command === undefined) === (b.command === undefined) && a.command?.exitCode === b.command?.exitCode;
}
