import type { FastifyRequest } from 'fastify';

/**
 * The request's path without its query string, as Marathon's `getRequestURI` gives it: the `uri`
 * of the events the API publishes (fact 107).
 */
export function requestPath(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q < 0 ? request.url : request.url.slice(0, q);
}
