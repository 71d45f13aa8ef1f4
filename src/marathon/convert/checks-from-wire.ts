import type { AppCheck, MesosCommand, PodCheck } from '../../scheduler/model/checks';
import type { WireObject } from './wire-object';

const PORT = { min: 0, max: 65535, integer: true };
const SECONDS = { min: 0, integer: true };

/** Reads an app's `check` (Marathon's `AppCheck`: `http`/`tcp` by port or port index, or `exec`), kept as given. */
export function appCheckFromWire(app: WireObject): AppCheck | undefined {
  const check = app.child('check');
  if (check === undefined) return undefined;
  const http = check.child('http');
  const tcp = check.child('tcp');
  return {
    ...(http === undefined ? {} : { http: { ...portTarget(http), ...httpTarget(http) } }),
    ...(tcp === undefined ? {} : { tcp: portTarget(tcp) }),
    ...execOf(check),
    ...timingOf(check),
  };
}

/** Reads a pod container's `check` (Marathon's `Check`: `http`/`tcp` by endpoint, or `exec`), kept as given. */
export function podCheckFromWire(container: WireObject): PodCheck | undefined {
  const check = container.child('check');
  if (check === undefined) return undefined;
  const http = check.child('http');
  const tcp = check.child('tcp');
  const httpEndpoint = http?.requiredString('endpoint');
  const tcpEndpoint = tcp?.requiredString('endpoint');
  return {
    ...(http === undefined || httpEndpoint === undefined ? {} : { http: { endpoint: httpEndpoint, ...httpTarget(http) } }),
    ...(tcpEndpoint === undefined ? {} : { tcp: { endpoint: tcpEndpoint } }),
    ...execOf(check),
    ...timingOf(check),
  };
}

/**
 * A Mesos command (`{shell}` or `{argv}`, Marathon's `MesosCommand`) at `holder[key]`; reported
 * and undefined when it is neither.
 */
export function mesosCommandFromWire(holder: WireObject, key: string): MesosCommand | undefined {
  if (!holder.has(key)) {
    holder.fail(key, 'error.path.missing');
    return undefined;
  }
  const command = holder.child(key);
  if (command === undefined) return undefined;
  if (command.has('argv')) {
    const argv = command.optionalStrings('argv');
    return argv === undefined ? undefined : { argv };
  }
  const shell = command.requiredString('shell');
  return shell === undefined ? undefined : { shell };
}

function portTarget(target: WireObject): { portIndex?: number; port?: number } {
  const portIndex = target.optionalNumber('portIndex', PORT);
  const port = target.optionalNumber('port', PORT);
  return { ...(portIndex === undefined ? {} : { portIndex }), ...(port === undefined ? {} : { port }) };
}

function httpTarget(http: WireObject): { path?: string; scheme?: string } {
  const path = http.optionalString('path');
  const scheme = http.optionalString('scheme');
  return { ...(path === undefined ? {} : { path }), ...(scheme === undefined ? {} : { scheme }) };
}

function execOf(check: WireObject): { exec?: { command: MesosCommand } } {
  const exec = check.child('exec');
  const command = exec === undefined ? undefined : mesosCommandFromWire(exec, 'command');
  return command === undefined ? {} : { exec: { command } };
}

function timingOf(check: WireObject): { intervalSeconds?: number; timeoutSeconds?: number; delaySeconds?: number } {
  const out: { intervalSeconds?: number; timeoutSeconds?: number; delaySeconds?: number } = {};
  for (const key of ['intervalSeconds', 'timeoutSeconds', 'delaySeconds'] as const) {
    const value = check.optionalNumber(key, SECONDS);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
