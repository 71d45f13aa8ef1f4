import {
  AGENT_PROTOCOL_ALIASES, HEALTH_CHECK_PROTOCOLS, healthCheckProtocolOf, type HealthCheckProtocol, type HealthCheckSpec,
} from '../../scheduler/model/health-check';
import type { AppPortSlot } from '../../scheduler/model/app-ports';
import type { ErrorSink } from './error-sink';
import { APP_CHECK_TIMING, type HealthCheckTiming, healthCheckTimingFromWire, timingMs } from './health-check-timing';
import { WireObject } from './wire-object';

const HTTP_KINDS: readonly HealthCheckProtocol[] = ['HTTP', 'HTTPS', 'MESOS_HTTP', 'MESOS_HTTPS'];

/** Marathon's message for a `portIndex` that addresses no port (facts 28). */
export const PORT_INDEX_MESSAGE =
  'Health check port indices must address an element of the ports array or container port mappings.';

/** Message for a protocol outside spec 2.5's list. */
export const UNKNOWN_PROTOCOL_MESSAGE =
  `protocol must be one of ${HEALTH_CHECK_PROTOCOLS.join(', ')} (${Object.keys(AGENT_PROTOCOL_ALIASES).join(', ')} are accepted as aliases)`;

/** A converted app health check: its protocol when known, the spec when the check is valid. */
export interface ConvertedHealthCheck {
  readonly protocol?: HealthCheckProtocol;
  readonly spec?: HealthCheckSpec;
}

/**
 * Converts one entry of an app's `healthChecks` (spec 2.5). The protocol defaults to `HTTP` and
 * is accepted in any case; the spec's `AGENT_*` names become Marathon's `MESOS_*`. Port-based checks
 * without `port` or `portIndex` get `portIndex` 0; an index must address one of `slots`. HTTP kinds
 * get `path` `/`; `HTTP`/`HTTPS` get `ignoreHttp1xx` false; `COMMAND` needs `command.value`.
 * `dockerContainer` (given for a definition a client sends, not a stored record): whether the app
 * runs in a `DOCKER` container, the only place Marathon lets an `IPv6` check be (a `MESOS_*` one).
 */
export function healthCheckFromWire(
  item: unknown,
  path: string,
  sink: ErrorSink,
  slots: readonly AppPortSlot[],
  dockerContainer?: boolean,
): ConvertedHealthCheck {
  const check = WireObject.of(item, path, sink);
  if (check === undefined) return {};
  const protocol = protocolOf(check);
  const timing = healthCheckTimingFromWire(check, APP_CHECK_TIMING);
  if (protocol === undefined) return {};
  const spec = specOf(check, protocol, timing, slots);
  if (dockerContainer !== undefined && spec?.ipProtocol === 'IPv6' && !(dockerContainer && IPV6_PROTOCOLS.includes(protocol))) {
    check.fail(undefined, IPV6_MESSAGE);
  }
  return { protocol, spec };
}

/** The checks that can probe over IPv6: the agent's, of a Docker container (Marathon's `complyWithIpProtocolRules`). */
const IPV6_PROTOCOLS: readonly HealthCheckProtocol[] = ['MESOS_HTTP', 'MESOS_HTTPS', 'MESOS_TCP'];

/** Marathon's message for `ipProtocol: IPv6` elsewhere (`AppValidationMessages.HealthCheckIpProtocolLimitation`). */
export const IPV6_MESSAGE = 'IPv6 can only be used for container type DOCKER and Mesos http/https/tcp health checks';

function specOf(
  check: WireObject,
  protocol: HealthCheckProtocol,
  timing: HealthCheckTiming,
  slots: readonly AppPortSlot[],
): HealthCheckSpec | undefined {
  const ipProtocol = ipProtocolOf(check);
  const target = protocol === 'COMMAND' ? commandOf(check) : portOf(check, slots);
  const http = HTTP_KINDS.includes(protocol);
  const checkPath = http ? check.string('path', '/') : undefined;
  const ignoreHttp1xx = protocol === 'HTTP' || protocol === 'HTTPS' ? check.boolean('ignoreHttp1xx', false) : undefined;
  if (target === undefined) return undefined;
  return {
    protocol, ...timingMs(timing), ...target,
    path: checkPath ?? '/', ignoreHttp1xx: ignoreHttp1xx ?? false, ipProtocol, form: 'app',
  };
}

function protocolOf(check: WireObject): HealthCheckProtocol | undefined {
  const given = check.optionalString('protocol');
  if (given === undefined) return check.has('protocol') ? undefined : 'HTTP';
  const known = healthCheckProtocolOf(given.toUpperCase());
  if (known === undefined) check.fail('protocol', UNKNOWN_PROTOCOL_MESSAGE);
  return known;
}

function ipProtocolOf(check: WireObject): 'IPv4' | 'IPv6' {
  const given = check.string('ipProtocol', 'IPv4');
  if (given === 'IPv4' || given === 'IPv6') return given;
  check.fail('ipProtocol', 'ipProtocol must be IPv4 or IPv6');
  return 'IPv4';
}

type Target = Partial<Pick<HealthCheckSpec, 'port' | 'portIndex' | 'command'>>;

function commandOf(check: WireObject): Target | undefined {
  const command = check.child('command');
  if (command === undefined) {
    if (!check.has('command')) check.fail('command', 'error.path.missing');
    return undefined;
  }
  const value = command.optionalString('value');
  if (value === undefined) {
    if (!command.has('value')) command.fail('value', 'error.path.missing');
    return undefined;
  }
  return { command: value };
}

/** `port` as given; `portIndex` as given, or 0 when neither was given (it must then address a port). */
function portOf(check: WireObject, slots: readonly AppPortSlot[]): Target | undefined {
  const port = check.optionalNumber('port', { min: 0, max: 65535, integer: true });
  const givenIndex = check.optionalNumber('portIndex', { min: 0, integer: true });
  const invalid = (check.has('port') && port === undefined) || (check.has('portIndex') && givenIndex === undefined);
  if (invalid) return undefined; // already reported
  if (port !== undefined) return givenIndex === undefined ? { port } : { portIndex: givenIndex, port };
  const portIndex = givenIndex ?? 0;
  if (portIndex >= slots.length) {
    check.fail(undefined, PORT_INDEX_MESSAGE);
    return undefined;
  }
  return { portIndex };
}
