import type { AgentInfo } from '../model/agent';
import { agentAttributeValues } from './agent-attribute-values';

/**
 * Where a constraint field is read from: the agent's hostname (`hostname` or `@hostname`), its
 * fault domain (`@region`, `@zone`) or a named attribute (anything else).
 */
export type FieldKind = 'hostname' | 'region' | 'zone' | 'attribute';

/** The {@link FieldKind} of a constraint field name (spec 2.8, "Field names"). */
export function fieldKindOf(field: string): FieldKind {
  switch (field) {
    case 'hostname':
    case '@hostname':
      return 'hostname';
    case '@region':
      return 'region';
    case '@zone':
      return 'zone';
    default:
      return 'attribute';
  }
}

/**
 * The canonical name of a field, so that `hostname` and `@hostname` share one set of counters:
 * `@hostname`, `@region`, `@zone`, or the attribute name itself.
 */
export function canonicalFieldName(field: string): string {
  switch (fieldKindOf(field)) {
    case 'hostname':
      return '@hostname';
    case 'region':
      return '@region';
    case 'zone':
      return '@zone';
    case 'attribute':
      return field;
  }
}

/**
 * Reads a field whose kind was resolved beforehand (by compileConstraints): the hot-path form of
 * {@link fieldValue}. O(1), no allocation once the agent's attributes are cached.
 * `attributeName` is only used when `kind` is `'attribute'`.
 */
export function readField(agent: AgentInfo, kind: FieldKind, attributeName: string): string | undefined {
  switch (kind) {
    case 'hostname':
      return agent.hostname;
    case 'region':
      return agent.region;
    case 'zone':
      return agent.zone;
    case 'attribute':
      return agentAttributeValues(agent).get(attributeName);
  }
}

/**
 * The value of a constraint field on an agent, as constraints compare it (spec 2.8):
 * `hostname` or `@hostname` → the hostname; `@region` / `@zone` → the fault domain (undefined when
 * the agent reports none); anything else → the attribute of that name in the resource manager's
 * format, or undefined when the agent lacks it. Undefined is "missing": only UNLIKE accepts it.
 *
 * Attribute values come from the per-agent cache ({@link agentAttributeValues}), so repeated
 * calls for the same agent format nothing again.
 */
export function fieldValue(agent: AgentInfo, field: string): string | undefined {
  return readField(agent, fieldKindOf(field), field);
}
