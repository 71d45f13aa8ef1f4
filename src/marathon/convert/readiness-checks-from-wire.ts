import type { ReadinessCheckSpec } from '../../scheduler/model/readiness-check';
import type { AppPortSlot } from './health-check-from-wire';
import { childPointer } from './json-pointer';
import { isRecord, WireObject } from './wire-object';

/** An app's readiness checks, normalized and as echoed (left out of the echo when none, fact 27). */
export interface ConvertedReadinessChecks {
  readonly checks: readonly ReadinessCheckSpec[];
  readonly wire?: readonly Readonly<Record<string, unknown>>[];
}

/** Marathon's defaults (fact 31, facts table L). */
const DEFAULTS = {
  name: 'readinessCheck', protocol: 'HTTP', path: '/', portName: 'http-api',
  intervalSeconds: 30, timeoutSeconds: 10, httpStatusCodesForReady: [200], preserveLastResponse: false,
} as const;

/**
 * Converts `app.readinessChecks` (fact 31): at most one; defaults filled; `protocol` HTTP or
 * HTTPS; `portName` must name a port definition or port mapping (its host port is what is probed);
 * `timeoutSeconds` must be below `intervalSeconds`; status codes are 100–999.
 */
export function readinessChecksFromWire(app: WireObject, slots: readonly AppPortSlot[]): ConvertedReadinessChecks {
  const list = app.array('readinessChecks');
  if (list === undefined || list.length === 0) return { checks: [] };
  if (list.length > 1) app.fail('readinessChecks', 'Only one readinessCheck is allowed');
  const names = portNames(app);
  const checks: ReadinessCheckSpec[] = [];
  const wire: Readonly<Record<string, unknown>>[] = [];
  list.forEach((item, i) => {
    const check = WireObject.of(item, childPointer(app.pathOf('readinessChecks'), i), app.sink);
    if (check === undefined) return;
    const converted = readinessCheck(check, names, slots);
    if (converted === undefined) return;
    checks.push(converted.spec);
    wire.push(converted.wire);
  });
  return { checks, wire };
}

function readinessCheck(
  check: WireObject, names: readonly (string | undefined)[], slots: readonly AppPortSlot[],
): { spec: ReadinessCheckSpec; wire: Readonly<Record<string, unknown>> } | undefined {
  const name = check.string('name', DEFAULTS.name);
  const protocol = check.string('protocol', DEFAULTS.protocol).toUpperCase();
  if (protocol !== 'HTTP' && protocol !== 'HTTPS') check.fail('protocol', 'must be one of HTTP, HTTPS');
  const path = check.string('path', DEFAULTS.path);
  const portName = check.string('portName', DEFAULTS.portName);
  const intervalSeconds = check.number('intervalSeconds', DEFAULTS.intervalSeconds, { min: 1, integer: true });
  const timeoutSeconds = check.number('timeoutSeconds', DEFAULTS.timeoutSeconds, { min: 1, integer: true });
  if (timeoutSeconds >= intervalSeconds) check.fail('timeoutSeconds', 'timeoutSeconds must be smaller than intervalSeconds');
  const codes = statusCodes(check);
  const preserveLastResponse = check.boolean('preserveLastResponse', DEFAULTS.preserveLastResponse);
  const slot = names.indexOf(portName);
  const portIndex = slot < 0 ? undefined : slots[slot]?.hostPortIndex;
  if (portIndex === undefined) check.sink.add(check.pathOf('portName'), `No port definition reference for portName ${portName}`);
  if (portIndex === undefined || (protocol !== 'HTTP' && protocol !== 'HTTPS')) return undefined;
  const wire = check.withExtras({
    name, protocol, path, portName, intervalSeconds, timeoutSeconds, httpStatusCodesForReady: codes, preserveLastResponse,
  });
  return {
    spec: {
      name, protocol, path, portName, portIndex, intervalMs: intervalSeconds * 1000, timeoutMs: timeoutSeconds * 1000,
      httpStatusCodesForReady: codes, preserveLastResponse,
    },
    wire,
  };
}

function statusCodes(check: WireObject): number[] {
  const list = check.array('httpStatusCodesForReady');
  if (list === undefined) return [...DEFAULTS.httpStatusCodesForReady];
  const codes: number[] = [];
  list.forEach((c, i) => {
    if (typeof c === 'number' && Number.isInteger(c) && c >= 100 && c <= 999) codes.push(c);
    else check.sink.add(childPointer(check.pathOf('httpStatusCodesForReady'), i), 'must be an HTTP status code (100-999)');
  });
  if (list.length === 0) check.fail('httpStatusCodesForReady', 'must not be empty');
  return codes;
}

/** Names of the app's ports, aligned with its port slots (port definitions, else port mappings). */
function portNames(app: WireObject): (string | undefined)[] {
  const container = app.raw.container;
  const mappings = isRecord(container) ? (container.portMappings ?? (isRecord(container.docker) ? container.docker.portMappings : undefined)) : undefined;
  const source = Array.isArray(mappings) && mappings.length > 0 ? mappings : app.raw.portDefinitions;
  if (!Array.isArray(source)) return [];
  return source.map((p) => (isRecord(p) && typeof p.name === 'string' ? p.name : undefined));
}
