import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { logRequestCompleted } from './request-log';

/**
 * The API's per-request work at the two points fastify reaches for every request through its log
 * controller, without running a hook:
 * - `incomingRequest`, as every request it routes arrives (404s included), before the `onRequest`
 *   hooks (authentication's too): fact 12's headers (`headers`; set before any hook or handler,
 *   so an error answer has them too: fastify's error handling drops only `content-type` and
 *   `content-length`), then whatever was added with {@link onArrival} (the HTTP metrics' count of
 *   requests in flight);
 * - `requestCompleted`, once an answer is finished (only while fastify listens for that: with a
 *   logger, or an `onResponse` hook — the HTTP metrics have one): pacer's request record
 *   ({@link logRequestCompleted}) when the server logs (`log`), one record per request instead of
 *   fastify's two.
 * Why not an `onRequest` or `onSend` hook: on this 2-core machine each kind of hook a request
 * passes costs a few µs (its runner and closures), which kept `GET /ping` under 0.8× a fastify
 * hello-world (issue 13, bench:api; bench/README.md has the figures).
 */
export class RequestLifecycle extends LogController {
  private readonly arrivals: ((request: FastifyRequest, reply: FastifyReply) => void)[] = [];

  constructor(private readonly headers: (reply: FastifyReply) => void, private readonly log: boolean) {
    super();
  }

  /** Adds what must see every request as it arrives, after the headers are set. */
  onArrival(fn: (request: FastifyRequest, reply: FastifyReply) => void): void {
    this.arrivals.push(fn);
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    this.headers(reply);
    for (let i = 0; i < this.arrivals.length; i++) this.arrivals[i](request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.log) logRequestCompleted(error, request, reply);
  }
}
