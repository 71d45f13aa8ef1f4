import type { FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { expectOk } from '../../command-result';
import { emptyBody, invalidJson, notFound, notFoundText, objectNotValid } from '../../errors';
import { type Query, queryBool } from '../../query';
import { podInstanceJson } from '../../render/pod-instance-json';
import type { Instance } from '../../../scheduler/model/instance';
import type { PodSpec } from '../../../scheduler/model/pod';

/** Marathon's instance id form (fact 87): `<run spec>.instance-<uuid>` (legacy `marathon-`). */
const INSTANCE_ID = /^(.+)\.(instance-|marathon-)([^.]+)$/;

/**
 * `DELETE /v2/pods/{id}::instances/{instanceId}` (fact 87): kills one instance and answers 200 with
 * the instance as it was when the kill was requested. `?wipe=true` forgets it (a new instance
 * replaces it); otherwise the same instance is relaunched. A malformed id → 422; an unknown pod
 * → 404 `Pod …`; an unknown instance → 404 `Task '<id>' does not exist`.
 */
export function killPodInstance(deps: ApiDeps, request: FastifyRequest, podId: string, instanceId: string): Record<string, unknown> {
  const wipe = queryBool(request.query as Query, 'wipe', false);
  checkInstanceIds([instanceId]);
  const pod = podOf(deps, podId);
  const inst = deps.scheduler.instances(podId).find((i) => i.instanceId === instanceId);
  if (inst === undefined) throw notFound(notFoundText.task(instanceId));
  const before = instanceJson(deps, pod, inst);
  kill(deps, podId, [instanceId], wipe);
  return before;
}

/**
 * `DELETE /v2/pods/{id}::instances` with a JSON array of instance ids (fact 88): kills those of the
 * pod's instances (ids that match none are skipped, as Marathon does) and answers 200 with the
 * array of killed instances. A body that is not an array of strings → 422 "Invalid JSON"; a
 * malformed id → 422; an unknown pod → 404.
 */
export function killPodInstances(deps: ApiDeps, request: FastifyRequest, podId: string): Record<string, unknown>[] {
  const wipe = queryBool(request.query as Query, 'wipe', false);
  const ids = instanceIdsOf(request.body);
  checkInstanceIds(ids);
  const pod = podOf(deps, podId);
  const wanted = new Set(ids);
  const victims = deps.scheduler.instances(podId).filter((i) => wanted.has(i.instanceId));
  const json = victims.map((inst) => instanceJson(deps, pod, inst));
  if (victims.length > 0) kill(deps, podId, victims.map((i) => i.instanceId), wipe);
  return json;
}

function podOf(deps: ApiDeps, podId: string): PodSpec {
  const pod = deps.scheduler.podForQuery(podId);
  if (pod?.kind !== 'pod') throw notFound(notFoundText.pod(podId));
  return pod;
}

function kill(deps: ApiDeps, podId: string, instanceIds: readonly string[], wipe: boolean): void {
  const command = { type: 'killInstances', runSpecId: podId, instanceIds, scale: false, wipe } as const;
  expectOk(deps.submit(command), deps.config.maxRunningDeployments);
}

/** The instance JSON with the unreachable strategy of the version the instance runs. */
function instanceJson(deps: ApiDeps, pod: PodSpec, inst: Instance): Record<string, unknown> {
  const version = deps.scheduler.runSpecVersion(pod.id, inst.runSpecVersion);
  return podInstanceJson(inst, (version ?? pod).unreachable);
}

function instanceIdsOf(body: unknown): string[] {
  if (body === undefined || body === null) throw emptyBody();
  if (!Array.isArray(body)) throw invalidJson([{ path: '/', errors: ['error.expected.jsarray'] }]);
  const bad = body.flatMap((v, i) => (typeof v === 'string' ? [] : [{ path: `/${i}`, errors: ['error.expected.jsstring'] }]));
  if (bad.length > 0) throw invalidJson(bad);
  return [...new Set(body as string[])];
}

function checkInstanceIds(ids: readonly string[]): void {
  const bad = ids.filter((id) => !INSTANCE_ID.test(id));
  if (bad.length === 0) return;
  throw objectNotValid([{ path: '/', errors: bad.map((id) => `'${id}' is not an instance id (<run spec>.instance-<uuid>)`) }]);
}
