import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import type { Query } from '../../query';
import { ListBodyCache, sendListBody } from '../../render/list-body-cache';
import { getGroups, getGroupText } from './group-read-handlers';
import { deleteGroup, type GroupWrite, patchGroup, postGroup, putGroup } from './group-write-handlers';

type WildcardRequest = FastifyRequest<{ Params: { '*'?: string } }>;

/**
 * `/v2/groups` (facts 65–76, spec sections 2.7, 4): the group tree.
 *
 * - `GET /v2/groups[/{id}]` → GroupInfo (`embed` as Marathon); `…/apps`, `…/versions`,
 *   `…/versions/{version}`;
 * - `POST /v2/groups[/{id}]` → create (201; 409 when it exists);
 * - `PUT /v2/groups[/{id}]` → create or update, `scaleBy`, `version` revert, `dryRun`, `force`;
 * - `PATCH /v2/groups/{id}` → `enforceRole` of a top-level group (200, empty body);
 * - `DELETE /v2/groups[/{id}]` → remove the subtree (`force`).
 *
 * Every change is converted here and submitted to the core as a root change (`changeRoot`,
 * `setEnforceRole`; a dry run asks `previewChange`): the core builds the new root and deploys it.
 * Pods are read-only here (spec section 1, rule 5): bodies cannot create or change them.
 */
export function groupsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  // The kept texts' encodings, per path and query: an unchanged tree is answered without encoding its 6 MB again (list-body-cache.ts).
  const bodies = new ListBodyCache();
  // Compression on: a client that accepts gzip gets the gzip kept beside the answer.
  const gzips = deps.config.httpCompression === false ? undefined : bodies;
  const write = (req: WildcardRequest): GroupWrite => ({ rest: req.params['*'] ?? '', query: req.query as Query, body: req.body, origin: req });

  for (const url of ['/v2/groups', '/v2/groups/*']) {
    app.get(url, async (req: WildcardRequest, reply) => {
      const rest = req.params['*'] ?? '';
      // The kept text only for a caller who may view everything: an authorization filter trims the object answer.
      const text = req.access === null || req.access === undefined || req.access.seesEverything() ? getGroupText(deps, rest, req.query as Query) : undefined;
      return text === undefined ? getGroups(deps, rest, req.query as Query) : sendListBody(reply, bodies.body(req.url, '', [{ key: rest, parts: [text] }], ''), gzips);
    });
    app.post(url, async (req: WildcardRequest, reply) => postGroup(deps, write(req), reply));
    app.put(url, async (req: WildcardRequest, reply) => putGroup(deps, write(req), reply));
    app.delete(url, async (req: WildcardRequest, reply) => deleteGroup(deps, write(req), reply));
  }
  app.patch('/v2/groups/*', async (req: WildcardRequest, reply) => patchGroup(deps, write(req), reply));
}
