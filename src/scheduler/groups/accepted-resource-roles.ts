import type { RunSpec } from '../model/run-spec';
import type { ValidationDetail } from './validation-detail';

/** Marathon's message for an app's `acceptedResourceRoles` given empty (accord's `notEmpty`; the converter's rule). */
export const EMPTY_ACCEPTED_ROLES_MESSAGE = 'must not be empty';

/**
 * Checks `acceptedResourceRoles` of a run spec (spec 2.7 rule 7, section 7 from 1.10 on, fact 113,
 * Marathon's `state/ResourceRole.scala`) and returns the failure detail, or undefined:
 *
 * - an empty list means "not given" (the default); the converter rejects an app's list given
 *   empty (`must not be empty`, facts 113), and pods echo an empty list as the default;
 * - every entry must be a valid role name;
 * - the list must be a subset of `{*, role}`: `acceptedResourceRoles can only contain *` for the
 *   role `*`, else `acceptedResourceRoles can only contain * and <role>` (the two names sorted);
 * - a resident run spec that names accepted roles must name exactly `["*"]`.
 *
 * The detail path is `/acceptedResourceRoles` for apps, `/scheduling/placement/acceptedResourceRoles`
 * for pods (where the pod definition holds it).
 */
export function validateAcceptedResourceRoles(spec: RunSpec): ValidationDetail | undefined {
  const given = givenRoles(spec);
  if (given === undefined) return undefined;
  const errors: string[] = [];
  for (const r of given) {
    const problem = roleNameProblem(r);
    if (problem !== undefined && !errors.includes(problem)) errors.push(problem);
  }
  const valid = [...new Set(['*', spec.role])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (given.length > 0 && !given.every((r) => valid.includes(r))) errors.push(`acceptedResourceRoles can only contain ${valid.join(' and ')}`);
  if (spec.resident && given.length > 0 && !given.every((r) => r === '*')) {
    errors.push(`A resident ${spec.kind} must have \`acceptedResourceRoles = ["*"]\`.`);
  }
  if (errors.length === 0) return undefined;
  return { path: spec.kind === 'app' ? '/acceptedResourceRoles' : '/scheduling/placement/acceptedResourceRoles', errors };
}

const FORBIDDEN_ROLE_CHARS: readonly (readonly [string, string])[] = [
  ['\t', 'horizontal tab (\\x09)'], ['\n', 'line feed (\\x0a)'], ['\v', 'vertical tab (\\x0b)'],
  ['\f', 'form feed (\\x0c)'], ['\r', 'carriage return (\\x0d)'], [' ', 'space (\\x20)'],
  ['/', 'slash (\\x2f)'], ['\x7f', 'backspace (\\x7f)'],
];

/** Why `role` is not a valid Mesos role name (Marathon's `ResourceRole.validResourceRole` messages), or undefined. */
export function roleNameProblem(role: string): string | undefined {
  if (role === '' || role === '.' || role === '..') return `A role name must not be "${role}".`;
  if (role.startsWith('-')) return "A role name must not start with a '-'.";
  const bad = FORBIDDEN_ROLE_CHARS.find(([ch]) => role.includes(ch));
  return bad === undefined ? undefined : `A role name must not include a ${bad[1]} character.`;
}

function givenRoles(spec: RunSpec): readonly string[] | undefined {
  return spec.acceptedResourceRoles.length > 0 ? spec.acceptedResourceRoles : undefined;
}
