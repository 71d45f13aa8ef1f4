import type { AppCheck, MesosCommand, PodCheck } from '../../scheduler/model/checks';

/** Marathon's `check` of an app or of a pod container, as given. */
export function checkJson(check: AppCheck | PodCheck): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (check.http !== undefined) json.http = { ...check.http };
  if (check.tcp !== undefined) json.tcp = { ...check.tcp };
  if (check.exec !== undefined) json.exec = { command: mesosCommandJson(check.exec.command) };
  if (check.intervalSeconds !== undefined) json.intervalSeconds = check.intervalSeconds;
  if (check.timeoutSeconds !== undefined) json.timeoutSeconds = check.timeoutSeconds;
  if (check.delaySeconds !== undefined) json.delaySeconds = check.delaySeconds;
  return json;
}

/** `{shell}` or `{argv}`. */
export function mesosCommandJson(command: MesosCommand): Record<string, unknown> {
  return 'shell' in command ? { shell: command.shell } : { argv: [...command.argv] };
}
