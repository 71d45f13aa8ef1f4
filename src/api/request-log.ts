import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * pacer's record of one request, written when its answer is sent (fastify's two records per
 * request are not written: {@link RequestLifecycle} replaces them): `method`, `path` (as asked,
 * query included), `status`, `ms` (fastify's `elapsedTime`, or the lifecycle's own measure for a
 * request answered before routing; rounded to 0.1 ms) and `client` (the peer address), at `info`
 * (`warn` for a 5xx, or when the answer failed). Nothing of the headers or the body: credentials
 * never reach the log. An event stream (`/v2/events`) is logged when it ends.
 */
export function logRequestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, elapsedMs = reply.elapsedTime): void {
  const ms = Math.round(elapsedMs * 10) / 10;
  // Never "undefined": the socket of a forwarded request may be gone by now (keepClientAddress).
  const client = request.ip ?? keptClients.get(request) ?? '-';
  const fields = { method: request.method, path: request.url, status: reply.statusCode, ms, client };
  const text = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms ${client}`;
  if (error !== null && error !== undefined) request.log.warn({ ...fields, err: error }, `${text}: ${error.message}`);
  else if (reply.statusCode >= 500) request.log.warn(fields, text);
  else request.log.info(fields, text);
}

const keptClients = new WeakMap<FastifyRequest, string>();

/**
 * Remembers the client's address of a request whose socket may be gone before its record is
 * written: a request a standby forwards to the leader, whose body is streamed out as it arrives
 * (the raw request then lets go of its socket, and its record named no client). Read while the
 * socket is there; only such requests pay for it. Returns the address.
 */
export function keepClientAddress(request: FastifyRequest): string | undefined {
  const address = request.ip;
  if (address !== undefined) keptClients.set(request, address);
  return address;
}
