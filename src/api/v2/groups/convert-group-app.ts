import type { ApiDeps } from '../../api-deps';
import { checkedAppFromWire } from '../../../marathon/convert/checked-from-wire';
import type { ConvertContext } from '../../../marathon/convert/convert-context';
import type { ConvertError } from '../../../marathon/convert/convert-result';
import type { ErrorSink } from '../../../marathon/convert/error-sink';
import { isRecord } from '../../../marathon/convert/wire-object';
import { type Group, notChildMessage, parentOf, resolvePathId, roleContextOf, findRunSpec } from '../../../scheduler/index';
import type { RunSpec } from '../../../scheduler/model/run-spec';
import type { AppSpec } from '../../../scheduler/model/app';

/** What converting the apps of a group body needs to know. */
export interface GroupAppContext {
  readonly deps: ApiDeps;
  /** The root before the change. */
  readonly root: Group;
  /** The version the converter writes (a placeholder: the core stamps the change's versions). */
  readonly versionIso: string;
  /** `?force=true`: lets a resident app change its role (fact 114). */
  readonly force: boolean;
  /** Whether the top-level group `topLevelId` enforces its role once the change is applied. */
  readonly enforces: (topLevelId: string) => boolean;
}

/** Where conversion problems go: shape problems ("Invalid JSON") and semantic ones ("Object is not valid"). */
export interface GroupErrorSinks {
  readonly shape: ErrorSink;
  readonly semantic: ErrorSink;
}

/**
 * Converts one app of a group body (`apps[i]` at `path`, listed in group `groupId`) into the core's
 * AppSpec, as Marathon normalizes and validates nested apps:
 *
 * - a relative `id` and relative `dependencies` resolve against the group (fact 66); the app must
 *   be a direct child of the group, else `Identifier is not child of '<group>'` at `<path>/id`;
 * - role rules (spec 2.7, facts 109–114): the group role is the default and the only allowed role
 *   when the top-level group enforces it (after this change), and the role an existing app
 *   already has stays acceptable (fact 111); a resident app changing role needs `force`;
 * - versions are the core's to stamp (an unchanged app keeps its version and is not restarted,
 *   fact 70).
 *
 * Shape problems are reported at `<path>/<field>` (play-json reads the whole body); semantic
 * problems at the app's own paths (`/role`, `/healthChecks/0`), as Marathon validates each nested
 * app on its own. Returns undefined when the app is not valid.
 */
export function convertGroupApp(raw: unknown, groupId: string, path: string, ctx: GroupAppContext, sinks: GroupErrorSinks): AppSpec | undefined {
  if (!isRecord(raw)) {
    sinks.shape.add(path, 'error.expected.jsobject');
    return undefined;
  }
  const id = typeof raw.id === 'string' ? resolvePathId(raw.id, groupId) : undefined;
  if (id !== undefined && id !== '/' && parentOf(id) !== groupId) sinks.semantic.add(`${path}/id`, notChildMessage(groupId));
  const previous = id === undefined ? undefined : findRunSpec(ctx.root, id);
  const result = checkedAppFromWire(withAbsoluteIds(raw, id, groupId), convertContext(ctx, id, previous));
  if (!result.ok) {
    report(result.errors, path, sinks);
    return undefined;
  }
  return result.spec;
}

function withAbsoluteIds(raw: Readonly<Record<string, unknown>>, id: string | undefined, groupId: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  if (id !== undefined) out.id = id;
  if (Array.isArray(raw.dependencies)) {
    out.dependencies = raw.dependencies.map((d: unknown) => (typeof d === 'string' ? resolvePathId(d, groupId) : d));
  }
  return out;
}

/**
 * The converter's context for app `id`: the enforced group role when its top-level group enforces
 * one, the role the app has now, which stays acceptable until changed (fact 111), and
 * `--enable_features` (`feature-rules.ts`).
 */
function convertContext(ctx: GroupAppContext, id: string | undefined, previous: RunSpec | undefined): ConvertContext {
  const config = ctx.deps.config;
  return {
    defaultRole: config.defaultRole,
    versionIso: ctx.versionIso,
    enabledFeatures: config.features,
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    ...(id === undefined ? {} : roleContextOf(ctx.root, id, previous, config.newGroupEnforceRole, ctx.enforces)),
  };
}

/** Shape errors (play-json keys, `error.…`) at `<path><pointer>`; semantic ones at the app's own pointers. */
function report(errors: readonly ConvertError[], path: string, sinks: GroupErrorSinks): void {
  for (const e of errors) {
    for (const message of e.errors) {
      if (message.startsWith('error.')) sinks.shape.add(e.path === '/' ? path : `${path}${e.path}`, message);
      else sinks.semantic.add(e.path, message);
    }
  }
}
