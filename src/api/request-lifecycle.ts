import { performance } from 'node:perf_hooks';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { logRequestCompleted } from './request-log';

/** Told once a request's answer is finished: the reply (status, headers) and its duration, ms. */
export type CompletionListener = (reply: FastifyReply, elapsedMs: number) => void;

/**
 * The API's per-request work at the two points fastify reaches for every request through its log
 * controller, without running a hook:
 * - `incomingRequest`, as every request it routes arrives (404s included), before the `onRequest`
 *   hooks (authentication's too): fact 12's headers (`headers`; set before any hook or handler,
 *   so an error answer has them too: fastify's error handling drops only `content-type` and
 *   `content-length`), then whatever was added with {@link onArrival} (the HTTP metrics' count of
 *   requests in flight);
 * - completion, once the answer is finished (the response's `finish`): pacer's request record
 *   ({@link logRequestCompleted}) when the server logs (`log`), one record per request instead of
 *   fastify's two, then whatever was added with {@link onCompletion} (the HTTP metrics). With a
 *   logger fastify listens for the finish itself and calls `requestCompleted`; without one (and
 *   without `onResponse` hooks, which pacer does not use) it does not, so then `incomingRequest`
 *   adds one `finish` listener of its own, and only when something listens for completions.
 * Why not `onRequest` / `onResponse` hooks: on this 2-core machine each kind of hook a request
 * passes costs a few µs (its runner and closures; an `onResponse` hook also makes fastify add
 * and remove two listeners per response), which kept `GET /ping` under 0.8× a fastify
 * hello-world (issue 13, bench:api; bench/README.md has the figures).
 */
export class RequestLifecycle extends LogController {
  private readonly arrivals: ((request: FastifyRequest, reply: FastifyReply) => void)[] = [];
  private readonly completions: CompletionListener[] = [];
  /** Answers whose client left them before they finished ({@link streamError}, {@link watchClose}): reported then, never again. */
  private readonly leftEarly = new WeakSet<FastifyReply>();

  /**
   * `log`: the server has a logger (fastify then calls {@link requestCompleted} for every finished
   * answer, with its `elapsedTime`), and one record per request is written.
   */
  constructor(private readonly headers: (reply: FastifyReply) => void, private readonly log: boolean) {
    super();
  }

  /** Adds what must see every request as it arrives, after the headers are set. */
  onArrival(fn: (request: FastifyRequest, reply: FastifyReply) => void): void {
    this.arrivals.push(fn);
  }

  /** Adds what must see every answer once it is finished (after the request record). */
  onCompletion(fn: CompletionListener): void {
    this.completions.push(fn);
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    this.headers(reply);
    for (let i = 0; i < this.arrivals.length; i++) this.arrivals[i](request, reply);
    if (!this.log && this.completions.length > 0) onceFinished(reply, (elapsedMs) => this.completed(reply, elapsedMs));
  }

  /**
   * A request fastify answers before routing it (`frameworkErrors`: a URL that does not decode):
   * it calls {@link incomingRequest} but never listens for the finish itself, so with a log its
   * completion (the request record, the metrics, the count of requests in flight) is reported here.
   * Without one, `incomingRequest`'s own listener does it.
   */
  answeredBeforeRouting(request: FastifyRequest, reply: FastifyReply): void {
    if (!this.log) return;
    const done = onceFinished(reply, (elapsedMs) => {
      logRequestCompleted(null, request, reply, elapsedMs);
      this.completed(reply, elapsedMs);
    });
    reply.raw.on('error', done);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // A finished answer was never reported as left early: the set is read only for one that failed.
    if (!this.log || (!reply.raw.writableFinished && this.leftEarly.has(reply))) return;
    logRequestCompleted(error, request, reply);
    this.completed(reply, reply.elapsedTime);
  }

  /**
   * A streamed answer (`reply.send(stream)`: the event stream a standby forwards from the leader)
   * that the client left before its end: fastify wrote a record of its own ("stream closed
   * prematurely", without pacer's fields) and reported no completion (the answer never finishes),
   * so the request had no record of pacer's and the count of requests in flight never went down
   * (found 2026-12-03). Its completion is reported here instead, once. Other stream errors are
   * fastify's `warn`, as before.
   */
  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      super.streamError(error, request, reply);
      return;
    }
    this.reportLeft(request, reply);
  }

  /**
   * For an answer that may end by its connection closing rather than by finishing (a hijacked
   * event stream the client leaves): neither fastify nor {@link incomingRequest}'s listener hears
   * of it then (no `finish`), so its record was never written and the HTTP metrics' count of
   * requests in flight never went down again (found 2026-12-03). On `close` without `finish`, the
   * completion is reported here, once; a finished answer was reported already.
   */
  watchClose(request: FastifyRequest, reply: FastifyReply): void {
    reply.raw.once('close', () => this.reportLeft(request, reply));
  }

  /** The completion of an answer its client left before it finished (unless it finished): reported once. */
  private reportLeft(request: FastifyRequest, reply: FastifyReply): void {
    if (reply.raw.writableFinished || this.leftEarly.has(reply)) return;
    this.leftEarly.add(reply);
    if (this.log) logRequestCompleted(null, request, reply);
    this.completed(reply, reply.elapsedTime);
  }

  private completed(reply: FastifyReply, elapsedMs: number): void {
    for (let i = 0; i < this.completions.length; i++) this.completions[i](reply, elapsedMs);
  }
}

/**
 * Calls `done` with the answer's duration (ms, from now) once it is finished, once: light-my-request's
 * responses (inject) emit `finish` twice. Returns the once-only callback, for other ends to share.
 */
function onceFinished(reply: FastifyReply, done: (elapsedMs: number) => void): () => void {
  const startMs = performance.now();
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done(performance.now() - startMs);
  };
  reply.raw.on('finish', finish);
  return finish;
}
