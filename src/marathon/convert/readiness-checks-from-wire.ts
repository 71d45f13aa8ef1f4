import type { ReadinessCheckSpec } from '../../scheduler/model/readiness-check';
import type { AppPortSlot } from '../../scheduler/model/app-ports';
import { childPointer } from './json-pointer';
import { WireObject } from './wire-object';

/** Marathon's defaults (fact 31, facts table L). */
const DEFAULTS = {
  name: 'readinessCheck', protocol: 'HTTP', path: '/', portName: 'http-api',
  intervalSeconds: 30, timeoutSeconds: 10, httpStatusCodesForReady: [200], preserveLastResponse: false,
} as const;

/**
 * Converts `app.readinessChecks` (fact 31): at most one; defaults filled; `protocol` HTTP or
 * HTTPS; `portName` must name a port definition or port mapping (its host port is what is probed);
 * `timeoutSeconds` must be below `intervalSeconds`; status codes are 100–999. `slots` are the
 * app's normalized ports (`appPortSlots`), which `portName` names.
 */
export function readinessChecksFromWire(app: WireObject, slots: readonly AppPortSlot[]): ReadinessCheckSpec[] {
  const list = app.array('readinessChecks');
  if (list === undefined || list.length === 0) return [];
  if (list.length > 1) app.fail('readinessChecks', 'Only one readinessCheck is allowed');
  const checks: ReadinessCheckSpec[] = [];
  list.forEach((item, i) => {
    const check = WireObject.of(item, childPointer(app.pathOf('readinessChecks'), i), app.sink);
    const converted = check === undefined ? undefined : readinessCheck(check, slots);
    if (converted !== undefined) checks.push(converted);
  });
  return checks;
}

function readinessCheck(check: WireObject, slots: readonly AppPortSlot[]): ReadinessCheckSpec | undefined {
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
  const portIndex = slots.find((s) => s.name === portName)?.hostPortIndex;
  if (portIndex === undefined) check.sink.add(check.pathOf('portName'), `No port definition reference for portName ${portName}`);
  if (portIndex === undefined || (protocol !== 'HTTP' && protocol !== 'HTTPS')) return undefined;
  return {
    name, protocol, path, portName, portIndex, intervalMs: intervalSeconds * 1000, timeoutMs: timeoutSeconds * 1000,
    httpStatusCodesForReady: codes, preserveLastResponse,
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
