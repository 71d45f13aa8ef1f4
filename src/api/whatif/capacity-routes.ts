import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api-deps';
import { badRequest, illegalArgument, notFound, notFoundText } from '../errors';
import { queryAll, type Query } from '../query';
import { WhatIfRefused } from '../../whatif/what-if-limits';

/**
 * `GET /v2/capacity?app=/id` (or `?pod=/id`), pacer's own (issue 18; docs/what-if.md): how many
 * more instances of that app's or pod's current definition fit on the cluster as it stands. The
 * what-if fork scales it up in the simulator and counts the instances placed (`fits`, at most
 * `tried`), per agent, with the queue's reasons for the rest. Nothing changes on the live cluster.
 * Exactly one of `app` or `pod` → else 400; an unknown id → 404; a cluster too large to fork → 422.
 */
export function capacityRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/capacity', (request, reply) => {
    const { id, kind } = capacityTarget(request.query as Query);
    const whatIf = deps.whatIf;
    if (whatIf === undefined) throw illegalArgument('What-if (capacity) is not available on this pacer');
    const spec = deps.scheduler.runSpec(id);
    if (spec === undefined || spec.kind !== kind) throw notFound(kind === 'app' ? notFoundText.app(id) : notFoundText.pod(id));
    try {
      return reply.send(whatIf.capacity(id));
    } catch (err) {
      if (err instanceof WhatIfRefused) throw illegalArgument(err.message);
      throw illegalArgument(`The capacity question could not be answered: ${(err as Error).message}`);
    }
  });
}

/** The run spec a capacity question names: `app` or `pod`, exactly one, made absolute. */
export function capacityTarget(query: Query): { id: string; kind: 'app' | 'pod' } {
  const apps = queryAll(query, 'app');
  const pods = queryAll(query, 'pod');
  if (apps.length + pods.length !== 1) throw badRequest('Give exactly one of app=/id or pod=/id');
  const kind = apps.length === 1 ? 'app' : 'pod';
  const raw = (apps[0] ?? pods[0]).trim();
  if (raw === '' || raw === '/') throw badRequest(`${kind} must name an ${kind === 'app' ? 'app' : 'pod'} id such as /web`);
  return { id: raw.startsWith('/') ? raw : `/${raw}`, kind };
}
