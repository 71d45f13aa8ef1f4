import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import type { Query } from '../../query';
import { getGroups, getGroupText } from './group-read-handlers';
import { deleteGroup, type GroupWrite, patchGroup, postGroup, putGroup } from './group-write-handlers';

type WildcardRequest = FastifyRequest<{ Params: { '*'?: string } }>;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The UTF-8 of the last few kept group texts (getGroupText answers the very same string while its
 * group is unchanged): a 6 MB tree is not encoded into a fresh buffer at every read. At most
 * {@link KEPT_ENCODINGS} texts, the least recently answered dropped first.
 */
class KeptEncodings {
  private readonly kept = new Map<string, Buffer>();

  of(text: string): Buffer {
    let bytes = this.kept.get(text);
    if (bytes !== undefined) this.kept.delete(text);
    else bytes = Buffer.from(text, 'utf8');
    this.kept.set(text, bytes);
    for (const old of this.kept.keys()) {
      if (this.kept.size <= KEPT_ENCODINGS) break;
      this.kept.delete(old);
    }
    return bytes;
  }
}

const KEPT_ENCODINGS = 4;

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
  const encoded = new KeptEncodings();
  const write = (req: WildcardRequest): GroupWrite => ({ rest: req.params['*'] ?? '', query: req.query as Query, body: req.body, origin: req });

  for (const url of ['/v2/groups', '/v2/groups/*']) {
    app.get(url, async (req: WildcardRequest, reply) => {
      const rest = req.params['*'] ?? '';
      // The kept text only for a caller who may view everything: an authorization filter trims the object answer.
      const text = req.access === null || req.access === undefined || req.access.seesEverything() ? getGroupText(deps, rest, req.query as Query) : undefined;
      return text === undefined ? getGroups(deps, rest, req.query as Query) : reply.type(JSON_TYPE).send(encoded.of(text));
    });
    app.post(url, async (req: WildcardRequest, reply) => postGroup(deps, write(req), reply));
    app.put(url, async (req: WildcardRequest, reply) => putGroup(deps, write(req), reply));
    app.delete(url, async (req: WildcardRequest, reply) => deleteGroup(deps, write(req), reply));
  }
  app.patch('/v2/groups/*', async (req: WildcardRequest, reply) => patchGroup(deps, write(req), reply));
}
