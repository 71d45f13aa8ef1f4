import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { queryOf, queryOne, type Query } from '../../query';
import { negotiate } from '../system/negotiate';
import { sendDeploymentResult } from '../deployments/deployment-result';
import { killFlagsOf } from './kill-flags';
import { killTasks } from './kill-tasks';
import { ListBodyCache, sendListBody } from '../../render/list-body-cache';
import { listTasksPieces, tasksStatusFilter, TASKS_PREFIX, TASKS_SUFFIX } from './list-tasks';
import { renderTaskTextsAhead } from '../../render/task-text-ahead';
import { taskIdsFromBody } from './task-ids-body';
import { tasksPlainText } from './tasks-plain-text';

/**
 * `/v2/tasks`: `GET` lists every app task (JSON, or the plain-text endpoint list for
 * `Accept: text/plain`), `POST /v2/tasks/delete` kills tasks by id (facts 57, 58).
 */
export function tasksRoutes(app: FastifyInstance, deps: ApiDeps): void {
  // The encoded JSON answer, kept per query; only the apps whose task texts changed are encoded again (list-body-cache.ts).
  const bodies = new ListBodyCache();
  // Compression on: a client that accepts gzip gets the gzip kept beside the answer.
  const gzips = deps.config.httpCompression === false ? undefined : bodies;
  // Task texts rendered as their statuses arrive, so the first read after a deployment does not render them all.
  const stopRendering = renderTaskTextsAhead(deps);
  app.addHook('onClose', async () => stopRendering());
  app.get('/v2/tasks', (req, reply) => {
    if (negotiate(req.headers.accept, ['application/json', 'text/plain']) === 'text/plain') {
      const containerNetworks = queryOne(req.query as Query, 'containerNetworks') ?? '';
      return reply.type('text/plain; charset=utf-8').send(tasksPlainText(deps, (id) => req.access?.may('ViewRunSpec', id) ?? true, containerNetworks));
    }
    const pieces = listTasksPieces(deps, tasksStatusFilter(req.query as Query), (id) => req.access?.may('ViewRunSpec', id) ?? true);
    return sendListBody(reply, bodies.body(queryOf(req.url), TASKS_PREFIX, pieces, TASKS_SUFFIX), gzips);
  });

  app.post('/v2/tasks/delete', (req, reply) => {
    // Fact 55/58: scale with wipe is refused before the body is looked at.
    const flags = killFlagsOf(req.query as Query);
    const outcome = killTasks(deps, taskIdsFromBody(req.body), flags);
    if (outcome.kind === 'tasks') return reply.type('application/json').send({ tasks: outcome.tasks });
    return sendDeploymentResult(reply.type('application/json'), outcome.result);
  });
}
