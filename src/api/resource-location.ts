import type { FastifyRequest } from 'fastify';

/**
 * `Location` of a created app, pod or group. Marathon builds it from the id alone, resolved against
 * the request's base URI (facts 17 and 65: `http://<host>/foo`, not `/v2/apps/foo`): the scheme
 * the request came in on and the `Host` it named, so a client that reached pacer by a name or
 * over HTTPS is sent back the same way.
 */
export function resourceLocation(request: Pick<FastifyRequest, 'protocol' | 'host'>, id: string): string {
  return `${request.protocol}://${request.host}${id}`;
}
