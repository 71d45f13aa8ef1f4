import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { commandError } from '../../command-result';
import { notFound, routeNotFound } from '../../errors';
import { embedSet, type Query } from '../../query';
import { heldUnhealthyKillsJson } from '../../render/held-unhealthy-kills-json';
import { queueEntryJson } from '../../render/queue-entry-json';

/**
 * `/v2/queue`: `GET` lists the run specs with instances waiting for offers (fact 90) and, while
 * pacer's kill-storm floor holds unhealthy kills back, `heldUnhealthyKills` beside `queue` (absent
 * otherwise, so the body stays Marathon's), `DELETE /v2/queue/{runSpecId}/delay` resets a run
 * spec's launch backoff (fact 91).
 */
export function queueRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/queue', (req, reply) => {
    const withLastUnusedOffers = embedSet(req.query as Query).has('lastUnusedOffers');
    const queue = deps.scheduler.queue().map((entry) => queueEntryJson(deps, entry, withLastUnusedOffers));
    const held = deps.scheduler.heldUnhealthyKills();
    const body = held.length === 0 ? { queue } : { queue, heldUnhealthyKills: held.map(heldUnhealthyKillsJson) };
    return reply.type('application/json').send(body);
  });

  // Only `<runSpecId>/delay` is served below the queue (route-methods.ts: GET there is 405, other paths 404).
  app.delete('/v2/queue/*', { config: { servesPath: (rest) => delayPathRunSpecId(rest) !== undefined } }, (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    const runSpecId = delayPathRunSpecId(rest);
    if (runSpecId === undefined) throw routeNotFound(req.method, req.url);
    // Fact 91: only a run spec with instances waiting has a delay to reset.
    if (!deps.scheduler.queue().some((entry) => entry.runSpec.id === runSpecId)) {
      throw notFound(`Application ${runSpecId} not found in tasks queue.`);
    }
    const result = deps.submit({ type: 'resetDelay', runSpecId });
    if (!result.ok) throw commandError(result, deps.config.maxRunningDeployments);
    return reply.code(204).send();
  });
}

/** `prod/web/delay` → `/prod/web`; undefined unless the path is `<id>/delay` with a non-empty id. */
export function delayPathRunSpecId(rest: string): string | undefined {
  const segments = rest.split('/').filter((s) => s !== '');
  if (segments.length < 2 || segments[segments.length - 1] !== 'delay') return undefined;
  return `/${segments.slice(0, -1).join('/')}`;
}
