import type { ReadMode } from '../../scheduler/model/volumes';
import { childPointer } from './json-pointer';
import { isRecord, type WireObject } from './wire-object';

/**
 * Marathon's `OptionLabelPatterns.LabelRegex`: a DVDI provider name, driver name and the label-like
 * rexray options. Written into messages as Marathon's accord writes it.
 */
const LABEL_PATTERN = '^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$';
const LABEL = new RegExp(LABEL_PATTERN);

/** Marathon's `OptionLabelPatterns.OptionKeyRegex`: a DVDI option key, `<label>/<option name>`. */
const OPTION_KEY_PATTERN = '^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?/[A-Za-z0-9](?:[-A-Za-z0-9\\._:]*[A-Za-z0-9])?$';
const OPTION_KEY = new RegExp(OPTION_KEY_PATTERN);

/** The external volume providers Marathon knows (`ExternalVolumes.providers`). */
const PROVIDERS: ReadonlySet<string> = new Set(['dvdi', 'csi']);

/** The option naming a DVDI volume's Docker volume driver (`DVDIProvider.driverOption`). */
export const DVDI_DRIVER_OPTION = 'dvdi/driver';

/** The driver whose options Marathon checks further (`DVDIProvider.driverValueRexRay`). */
const REXRAY = 'rexray';

/** Accord's message for a value outside a pattern (`matchRegex`). */
function mustMatch(pattern: string): string {
  return `must match regular expression '${pattern}'`;
}

/** Accord's message for an `Option` that Marathon's `definedAnd` wants given. */
const NOT_DEFINED = 'not defined';

/** Accord's message for an empty value where `notEmpty` wants one. */
const MUST_NOT_BE_EMPTY = 'must not be empty';

/** Marathon's message for an unknown `external.provider` (`ExternalVolumes.validRamlVolume`). */
export const UNKNOWN_PROVIDER_MESSAGE = 'is unknown provider';

/** Marathon's message for a Docker container's DVDI volume with options besides the driver. */
export const DOCKER_DVDI_OPTIONS_MESSAGE = `must only contain ${DVDI_DRIVER_OPTION}`;

/** Marathon's message for a Docker container's DVDI volume with a size. */
export const DOCKER_DVDI_SIZE_MESSAGE = 'must be undefined for Docker containers';

/** Marathon's message for external volumes of one app sharing a name (`AppValidation.validContainer`). */
export const VOLUME_NAMES_UNIQUE_MESSAGE = 'Volume names must be unique';

/**
 * Marathon's rules for one external volume of an app a client sends (Marathon 1.11
 * `AppValidation.validVolume` and `DVDIProvider.ramlVolume`), at its paths under the volume `v`.
 * A CSI volume (`provider: "csi"`) has none of them. Any other is a DVDI one:
 *
 * - `external.name` not empty; `external.provider` given and a label (`[a-z0-9-]`, no `-` at an
 *   end); every `external.options` key `<label>/<name>` (reported at `options/keys(i)`);
 * - the provider must be one Marathon knows (`dvdi` or `csi`: `is unknown provider`);
 * - with provider `dvdi`: `options["dvdi/driver"]` given and a label (at
 *   `external/options("dvdi/driver")`); with driver `rexray`, `dvdi/volumetype` and
 *   `dvdi/newfstype` labels, `dvdi/iops` a positive integer, `dvdi/overwritefs` a boolean (each
 *   at `external/options/"<key>"`); in a `MESOS` container the mode (when given) is `RW` and the
 *   `containerPath` not `.` or `..`; in a `DOCKER` one the `containerPath` not `.` or `..`, no
 *   option but the driver and no `size` (the Docker containerizer passes neither).
 *
 * Applied to requests only: a stored record loads as it was accepted (`ConvertContext.storedRecord`).
 */
export function externalVolumeRules(v: WireObject, containerType: 'MESOS' | 'DOCKER', mode: ReadMode | undefined): void {
  const e = v.child('external');
  if (e === undefined) return;
  const provider = e.raw.provider;
  if (provider === 'csi') return;
  const name = e.raw.name;
  if (name === undefined || name === null || name === '') e.fail('name', MUST_NOT_BE_EMPTY);
  if (provider === undefined || provider === null) e.fail('provider', NOT_DEFINED);
  else if (typeof provider === 'string' && !LABEL.test(provider)) e.fail('provider', mustMatch(LABEL_PATTERN));
  const options = isRecord(e.raw.options) ? e.raw.options : {};
  Object.keys(options).forEach((key, i) => {
    if (!OPTION_KEY.test(key)) e.sink.add(childPointer(childPointer(e.pathOf('options'), 'keys'), i), mustMatch(OPTION_KEY_PATTERN));
  });
  if (typeof provider !== 'string') return;
  if (!PROVIDERS.has(provider)) {
    e.fail('provider', UNKNOWN_PROVIDER_MESSAGE);
    return;
  }
  dvdiRules(v, e, options, containerType, mode);
}

/** `DVDIProviderValidations.ramlVolume`, for a volume whose provider is `dvdi`. */
function dvdiRules(
  v: WireObject, e: WireObject, options: Readonly<Record<string, unknown>>, containerType: 'MESOS' | 'DOCKER', mode: ReadMode | undefined,
): void {
  const name = e.raw.name;
  if (name === undefined || name === null) e.fail('name', NOT_DEFINED);
  const driverAt = e.pathOf(`options("${DVDI_DRIVER_OPTION}")`);
  const driver = options[DVDI_DRIVER_OPTION];
  if (driver === undefined) e.sink.add(driverAt, NOT_DEFINED);
  else if (typeof driver === 'string' && !LABEL.test(driver)) e.sink.add(driverAt, mustMatch(LABEL_PATTERN));
  if (driver === REXRAY) rexrayRules(e, options);
  const containerPath = v.raw.containerPath;
  if (containerPath === '.' || containerPath === '..') v.fail('containerPath', 'can not be one of (.,..)');
  if (containerType === 'MESOS') {
    // Marathon's RAML requires `mode` here; pacer keeps taking it left out, as it always has.
    if (mode !== undefined && mode !== 'RW') v.fail('mode', 'does not equal RW');
    return;
  }
  if (Object.keys(options).some((key) => key !== DVDI_DRIVER_OPTION)) e.fail('options', DOCKER_DVDI_OPTIONS_MESSAGE);
  if (e.has('size')) e.fail('size', DOCKER_DVDI_SIZE_MESSAGE);
}

/** `DVDIProviderValidations.VolumeOptions.validRexRayOptions`. */
function rexrayRules(e: WireObject, options: Readonly<Record<string, unknown>>): void {
  const at = (key: string): string => childPointer(e.pathOf('options'), `"${key}"`);
  for (const key of ['dvdi/volumetype', 'dvdi/newfstype']) {
    const value = options[key];
    if (typeof value === 'string' && !LABEL.test(value)) e.sink.add(at(key), mustMatch(LABEL_PATTERN));
  }
  const iops = options['dvdi/iops'];
  // Scala's `toLong` then `> 0`: an optional sign and digits only.
  if (typeof iops === 'string' && !(/^[+-]?\d+$/.test(iops) && BigInt(iops) > 0n && BigInt(iops) <= 9223372036854775807n)) {
    e.sink.add(at('dvdi/iops'), `Expected a valid, positive integer instead of ${iops}`);
  }
  const overwritefs = options['dvdi/overwritefs'];
  // Marathon's `validBoolean` is `isTrue(...)(s => Try(s.toBoolean).getOrElse(false))`: it passes
  // only what parses to true (`true` in any case) and so refuses "false" too. pacer follows that
  // code (spec/README.md: Marathon's behaviour before a user's expectation), bug included.
  if (typeof overwritefs === 'string' && overwritefs.toLowerCase() !== 'true') e.sink.add(at('dvdi/overwritefs'), 'Expected a valid boolean');
}
