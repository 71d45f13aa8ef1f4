import { type Query, queryOne } from '../../query';
import type { AppSpec } from '../../../scheduler/model/app';
import { matchesLabels, parseLabelSelectors } from './label-selector';

/**
 * The filter of `GET /v2/apps` (fact 37): `cmd` and `id` match apps whose command or id contains
 * the value, ignoring case (apps without `cmd` never match a `cmd` filter); `label` is a label
 * selector query that every app must satisfy. Absent parameters do not filter: with none of
 * them it is undefined (every app is kept, and a list of 10,000 apps is not filtered per read).
 * An unparsable label selector throws fact 9's 422.
 */
export function appFilter(query: Query): ((app: AppSpec) => boolean) | undefined {
  const cmd = queryOne(query, 'cmd')?.toLowerCase();
  const id = queryOne(query, 'id')?.toLowerCase();
  const label = queryOne(query, 'label');
  if (cmd === undefined && id === undefined && label === undefined) return undefined;
  const selectors = label === undefined ? [] : parseLabelSelectors(label);
  return (app) =>
    (cmd === undefined || (app.cmd !== undefined && app.cmd.toLowerCase().includes(cmd)))
    && (id === undefined || app.id.toLowerCase().includes(id))
    && matchesLabels(selectors, app.labels);
}
