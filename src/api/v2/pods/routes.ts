import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { routeNotFound } from '../../errors';
import { killPodInstance, killPodInstances } from './pod-kill-handlers';
import { getPod, getPodStatus, getPodVersion, getPodVersions, listPodStatus, listPods } from './pod-read-handlers';
import { type PodTarget, podTargetOf } from './pod-target';
import { createPod, deletePod, replacePod } from './pod-write-handlers';

/**
 * The `/v2/pods` routes (spec sections 1 and 4, facts 77–88). Pod ids contain slashes, so one
 * wildcard route per method takes the rest of the path and {@link podTargetOf} splits the `::`
 * suffixes (`::status`, `::versions[/v]`, `::instances[/id]`). Repeated slashes are collapsed by
 * the server before routing. A method Marathon does not serve on a target another method serves
 * answers 405 with `Allow` (`PUT /v2/pods/p::status`); a target no method serves, 404.
 */
export function podsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  // Fact 77: the capability probe "are pods supported" → 200 with an empty body.
  // Each handler returns the reply it sent, as the app and group routes do (fastify's rule for
  // handlers that call send; the what-if wrapper, which makes write handlers async, also reads a
  // handler that returned nothing as sent: whatif/install-what-if.ts).
  app.head('/v2/pods', (_request, reply) => reply.code(200).send());
  app.get('/v2/pods', { exposeHeadRoute: false }, (_request, reply) => reply.send(listPods(deps)));
  app.post('/v2/pods', (request, reply) => reply.send(createPod(deps, request, reply)));
  // Which targets each method serves: another method on a served target is 405 (route-methods.ts).
  // HEAD as GET without the body, as JAX-RS answers it (Marathon); only `/v2/pods` has a HEAD of its own (fact 77).
  app.get('/v2/pods/*', { config: { servesPath: serves(READ_KINDS) } }, (request, reply) => reply.send(read(deps, request)));
  app.put('/v2/pods/*', { config: { servesPath: serves(WRITE_KINDS) } }, (request, reply) => reply.send(write(deps, request, reply)));
  app.delete('/v2/pods/*', { config: { servesPath: serves(REMOVE_KINDS) } }, (request, reply) => reply.send(remove(deps, request, reply)));
}

const READ_KINDS = new Set<PodTarget['kind']>(['list', 'allStatus', 'pod', 'status', 'versions', 'version']);
const WRITE_KINDS = new Set<PodTarget['kind']>(['pod']);
const REMOVE_KINDS = new Set<PodTarget['kind']>(['pod', 'instance', 'instances']);

function serves(kinds: ReadonlySet<PodTarget['kind']>): (rest: string) => boolean {
  return (rest) => kinds.has(podTargetOf(rest).kind);
}

function targetOf(request: FastifyRequest): PodTarget {
  return podTargetOf((request.params as Record<string, string | undefined>)['*'] ?? '');
}

function read(deps: ApiDeps, request: FastifyRequest): unknown {
  const target = targetOf(request);
  switch (target.kind) {
    case 'list': return listPods(deps);
    case 'allStatus': return listPodStatus(deps);
    case 'pod': return getPod(deps, target.id);
    case 'status': return getPodStatus(deps, target.id);
    case 'versions': return getPodVersions(deps, target.id);
    case 'version': return getPodVersion(deps, target.id, target.version);
    default: throw routeNotFound(request.method, request.url);
  }
}

function write(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): unknown {
  const target = targetOf(request);
  if (target.kind !== 'pod') throw routeNotFound(request.method, request.url);
  return replacePod(deps, request, reply, target.id);
}

function remove(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): unknown {
  const target = targetOf(request);
  switch (target.kind) {
    case 'pod': return deletePod(deps, request, reply, target.id);
    case 'instance': return killPodInstance(deps, request, target.id, target.instanceId);
    case 'instances': return killPodInstances(deps, request, target.id);
    default: throw routeNotFound(request.method, request.url);
  }
}
