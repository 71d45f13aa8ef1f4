import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { appFromWire } from '../../../src/marathon/convert/app-from-wire';
import type { ConvertError, ConvertResult } from '../../../src/marathon/convert/convert-result';
import { podFromWire } from '../../../src/marathon/convert/pod-from-wire';
import { APP_VOLUME_KIND_MESSAGE } from '../../../src/marathon/convert/volumes-from-wire';
import { NETWORK_API_MIX_MESSAGE } from '../../../src/marathon/convert/app-networks-from-wire';
import { appDefinitionJson } from '../../../src/marathon/render/app-definition-json';
import { podDefinitionJson } from '../../../src/marathon/render/pod-definition-json';
import type { RunSpec } from '../../../src/scheduler/model/run-spec';
import { type CorpusEntry, wireCorpus } from './fixtures/wire-corpus';
import { appDefaults, withWrittenDefaults } from './fixtures/written-defaults';

/**
 * The safety net of the run spec model (issue 12): for every app and pod definition of the
 * corpus, the model's Marathon JSON (`render(convert(x))`) is what pacer answered before the model
 * replaced the wire copy of the definition, and what it refused it still refuses with the same
 * messages — apart from the deliberate differences below, each a step towards Marathon 1.11:
 *
 * 1. fields no Marathon type has are dropped, as Marathon's readers drop them (the corpus's are
 *    the fuzzer's `a`, `b`, `k<n>`, `kkk…`); a pod container `lifecycle` left without
 *    `killGracePeriodSeconds` is then written `null`, as one not given;
 * 2. a pod's placement constraints are written in the pod's object form (Marathon's `Constraint`)
 *    even when given as arrays;
 * 3. durations are what the core schedules with: whole milliseconds (`5e-324` seconds of launch
 *    delay → 0). Resources were written in the core's whole thousandths of a cpu or MiB too
 *    (`5e-324` MiB of disk → 0) until 2026-12-03; they are echoed as given again, as Marathon
 *    does (model/resources.ts `ExactScalars`);
 * 4. definitions Marathon's RAML reader refuses are refused with a message: a volume that is
 *    none of host (`hostPath`), persistent, external or secret; a `check` command with neither
 *    `shell` nor `argv`;
 * 5. a readiness check's `portName` is looked up among the app's normalized ports, so a body
 *    already refused for port mappings under host networking no longer also gets the port name's
 *    consequential error;
 * 6. an environment variable that references a secret the definition does not declare is refused
 *    (`/…/secret`: "references an undefined secret named '…'"), as Marathon's SecretValidation;
 * 7. fields Marathon's writer always gives are written at their defaults when not given (found
 *    by a Marathon-client trial, 2026-12-02): an app container's `type` (DOCKER with `docker`
 *    settings, else MESOS), `docker.forcePullImage` and `privileged` (false), an artifact's
 *    `extract`, `executable` and `cache` (true, false, false), a persistent volume's `type`
 *    (`root`), an app's `executorResources` fields (0.1, 32, 10);
 * 8. the deprecated `ipAddress` is translated into networks (fact 116), no longer refused as
 *    unsupported: accepted, or refused (at `/ipAddress` still) for being given with `networks`;
 * 9. what a definition names follows Marathon's rules (reference-rules.test.ts): a `pullConfig` or
 *    secret volume names a declared secret, and an external volume its provider's rules (a DVDI
 *    one without `options["dvdi/driver"]` is refused: `not defined`);
 * 10. Marathon's other rules compared one by one (marathon-rules.test.ts): among them a pod
 *    health check's `timeoutSeconds` below its `intervalSeconds` (the fuzzer's pods give an
 *    interval and leave the timeout at 20: `got 20, expected less than 5`) and every pod volume
 *    mounted by a container.
 */

const corpus = wireCorpus();

function convert(e: CorpusEntry): ConvertResult<RunSpec> {
  return e.kind === 'app' ? appFromWire(e.json, e.ctx) : podFromWire(e.json, e.ctx);
}

function render(spec: RunSpec): Record<string, unknown> {
  return spec.kind === 'app' ? appDefinitionJson(spec) : podDefinitionJson(spec);
}

const UNKNOWN_FIELD = /^(a|b|k\d+|k+)$/;

/** Maps whose keys are the user's (labels, environments, secrets, driver options): nothing in them is unknown. */
const MAPS: ReadonlySet<string> = new Set(['labels', 'env', 'environment', 'secrets', 'options', 'nodeStageSecret', 'nodePublishSecret', 'volumeContext']);

/** Difference 1: the recorded JSON without the fields no Marathon type has. */
function withoutUnknownFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUnknownFields);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (UNKNOWN_FIELD.test(key)) continue;
    out[key] = MAPS.has(key) ? v : withoutUnknownFields(v);
  }
  return out;
}

/** Differences 1 (lifecycle), 2 and 3 (the backoff) on a recorded pod. */
function podDifferences(echo: Record<string, unknown>): Record<string, unknown> {
  const scheduling = echo.scheduling as { placement: { constraints: unknown[] }; backoff: Record<string, number> };
  const constraints = scheduling.placement.constraints.map((c) => (Array.isArray(c)
    ? (c.length === 2 ? { fieldName: c[0], operator: c[1] } : { fieldName: c[0], operator: c[1], value: c[2] }) : c));
  const containers = (echo.containers as Record<string, unknown>[]).map((c) => ({
    ...c,
    lifecycle: isDeepStrictEqual(c.lifecycle, {}) ? null : c.lifecycle,
  }));
  const backoff = { ...scheduling.backoff, ...milli({ backoff: scheduling.backoff.backoff, maxLaunchDelay: scheduling.backoff.maxLaunchDelay }) };
  return { ...echo, containers, scheduling: { ...scheduling, backoff, placement: { ...scheduling.placement, constraints } } };
}

function milli(resources: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
}

/** The recorded answer with the deliberate differences applied. */
function expectedEcho(e: CorpusEntry): Record<string, unknown> {
  const echo = withWrittenDefaults(withoutUnknownFields(e.echo)) as Record<string, unknown>;
  return e.kind === 'pod' ? podDifferences(echo) : appDefaults(echo);
}

/** Difference 8: refused for `ipAddress` alone before, accepted now. */
function wasRefusedForIpAddressOnly(e: CorpusEntry): boolean {
  return (e.errors ?? []).length > 0 && (e.errors ?? []).every((d) => d.path === '/ipAddress');
}

/** Difference 4: messages a definition Marathon refuses now gets where it was accepted. */
function isDeliberateNewError(d: ConvertError): boolean {
  return d.errors.every((m) => m === APP_VOLUME_KIND_MESSAGE || (m === 'error.path.missing' && d.path.startsWith('/check/'))
    || (m.startsWith('references an undefined secret named ') && d.path.endsWith('/secret'))
    || NEW_REFERENCE_MESSAGES.has(m) || m.startsWith('must match regular expression ') || m.startsWith('Expected a valid')
    || (/^got \d+, expected less than \d+$/.test(m) && d.path.endsWith('/healthCheck/timeoutSeconds')));
}

/** Difference 9's messages. */
const NEW_REFERENCE_MESSAGES: ReadonlySet<string> = new Set([
  'not defined', 'must not be empty', 'is unknown provider', 'does not equal RW', 'can not be one of (.,..)',
  'must only contain dvdi/driver', 'must be undefined for Docker containers', 'Volume names must be unique',
  'pullConfig.secret must refer to an existing secret', 'pullConfig is not supported with Docker containerizer',
  'volume.secret must refer to an existing secret', 'must be empty',
  // Difference 10's.
  'volume must be referenced by at least one container', 'container ports must be unique across all containers',
  'host ports must be unique across all containers', 'Duplicate networks are not allowed', 'is not allowed when using host-mode networking',
  'Duplicate protocols within the same endpoint are not allowed', 'URI has invalid syntax.', 'Port names must be unique.',
]);

/** Difference 5. */
function isConsequentialPortName(d: ConvertError, now: readonly ConvertError[]): boolean {
  return d.path.endsWith('/portName') && d.errors.every((m) => m.startsWith('No port definition reference'))
    && now.some((n) => n.errors.includes('portMappings are not allowed with host-networking'));
}

t.test('the corpus is large and covers every kind of definition', async (t) => {
  t.ok(corpus.length > 5000, `${corpus.length} definitions`);
  const ok = (kind: string) => corpus.filter((e) => e.kind === kind && e.ok).length;
  t.ok(ok('app') > 3000 && ok('pod') > 1000, `${ok('app')} apps and ${ok('pod')} pods converted`);
  t.ok(corpus.filter((e) => !e.ok).length > 200, 'and a few hundred refused');
});

t.test('render(convert(x)) is what pacer answered before the model, for every accepted definition', async (t) => {
  const mismatches: string[] = [];
  for (const e of corpus.filter((c) => c.ok)) {
    const result = convert(e);
    if (!result.ok) {
      if (!result.errors.every(isDeliberateNewError)) mismatches.push(`${e.kind} ${JSON.stringify(e.json).slice(0, 200)}: now refused ${JSON.stringify(result.errors)}`);
      continue;
    }
    if (!isDeepStrictEqual(render(result.spec), expectedEcho(e))) mismatches.push(`${e.kind} ${String((e.json as { id?: unknown }).id)}: ${JSON.stringify(render(result.spec)).slice(0, 400)}`);
  }
  t.same(mismatches, [], 'no difference but the deliberate ones');
});

t.test('what pacer refused it still refuses, with the same details (plus the deliberate new ones)', async (t) => {
  const mismatches: string[] = [];
  for (const e of corpus.filter((c) => !c.ok)) {
    const result = convert(e);
    const now = result.ok ? [] : result.errors;
    const extra = now.filter((d) => !(e.errors ?? []).some((r) => isDeepStrictEqual(r, d)));
    const lost = (e.errors ?? []).filter((r) => !now.some((d) => isDeepStrictEqual(r, d)) && !isConsequentialPortName(r, now));
    if (wasRefusedForIpAddressOnly(e) && now.every((d) => d.path === '/ipAddress' && isDeepStrictEqual(d.errors, [NETWORK_API_MIX_MESSAGE]))) continue;
    if (result.ok || lost.length > 0 || !extra.every(isDeliberateNewError)) {
      mismatches.push(`${e.kind} ${JSON.stringify(e.json).slice(0, 200)}: was ${JSON.stringify(e.errors)}, now ${JSON.stringify(now)}`);
    }
  }
  t.same(mismatches, [], 'no difference but the deliberate ones');
});

t.test('convert(render(convert(x))) == convert(x): the model survives its own Marathon JSON', async (t) => {
  const mismatches: string[] = [];
  for (const e of corpus) {
    const first = convert(e);
    if (!first.ok) continue;
    const again = e.kind === 'app' ? appFromWire(render(first.spec), e.ctx) : podFromWire(render(first.spec), e.ctx);
    if (!again.ok || !isDeepStrictEqual(again.spec, first.spec)) {
      mismatches.push(`${e.kind} ${first.spec.id}: ${again.ok ? 'differs' : JSON.stringify(again.errors)}`);
    }
  }
  t.same(mismatches, [], 'every accepted definition round-trips');
});
