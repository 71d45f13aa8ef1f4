/**
 * The actions a policy grants: Marathon's `AuthorizedAction` set
 * (`plugin-interface/src/main/scala/mesosphere/marathon/plugin/auth/AuthorizedAction.scala`), the
 * names its API resources pass to `checkAuthorization` (AppsResource, PodsResource,
 * GroupsResource/GroupApiService, TasksResource, QueueResource, DeploymentsResource, InfoResource,
 * LeaderResource, SystemResource). Killing, scaling and restarting are `UpdateRunSpec` there, and
 * so here. Marathon's `CreateResource`/`DeleteResource` guard nothing in its API and are left out.
 */
export const AUTHORIZED_ACTIONS = [
  'ViewRunSpec', 'CreateRunSpec', 'UpdateRunSpec', 'DeleteRunSpec',
  'ViewGroup', 'CreateGroup', 'UpdateGroup', 'DeleteGroup',
  'ViewResource', 'UpdateResource',
] as const;

export type AuthorizedAction = (typeof AUTHORIZED_ACTIONS)[number];

/** System resource actions: granted only by an entry whose path is `/`. */
export const RESOURCE_ACTIONS: ReadonlySet<AuthorizedAction> = new Set(['ViewResource', 'UpdateResource']);

/**
 * The short names a policy file may use besides Marathon's: `view` (run specs, groups and, at
 * `/`, system resources), `create`, `update` (also kill, scale, restart, reset the launch delay,
 * cancel a deployment), `delete`, and `all`.
 */
export const ACTION_ALIASES: Readonly<Record<string, readonly AuthorizedAction[]>> = {
  view: ['ViewRunSpec', 'ViewGroup', 'ViewResource'],
  create: ['CreateRunSpec', 'CreateGroup'],
  update: ['UpdateRunSpec', 'UpdateGroup', 'UpdateResource'],
  delete: ['DeleteRunSpec', 'DeleteGroup'],
  all: AUTHORIZED_ACTIONS,
};

/** The actions a name stands for (a Marathon name or an alias); undefined for an unknown name. */
export function actionsNamed(name: string): readonly AuthorizedAction[] | undefined {
  if ((AUTHORIZED_ACTIONS as readonly string[]).includes(name)) return [name as AuthorizedAction];
  return ACTION_ALIASES[name];
}
