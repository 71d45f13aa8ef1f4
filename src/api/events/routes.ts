import type { RequestLifecycle } from '../request-lifecycle';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../api-deps';
import { ApiError, tooManySubscribers } from '../errors';
import { queryAll, type Query } from '../query';
import { eventViewOf } from '../authz/event-view';
import { acceptsEventStream } from './accepts-event-stream';
import { clientAddress } from './client-address';
import type { EventStream, StreamClient } from './event-stream';
import type { PlanFormat } from './wire-event-json';
import { responseSink } from './response-sink';
import { sseHeaders } from './sse-headers';
import { MAX_EVENT_SUBSCRIBERS } from './event-stream-hub';

export type { EventStream, StreamClient } from './event-stream';

/**
 * `GET /v2/events`: the server-sent event stream (spec section 6, facts 101–105). Needs
 * `Accept: text/event-stream`; `event_type` (repeatable, exact names) filters (pacer's own `pacer_…`
 * types are sent only to clients that name them, subscriber.ts); `plan-format=light`
 * (Marathon 1.6/1.7, exactly `light`, any of the repeated values: {@link planFormatOf}) leaves
 * `original`/`target` out of deployment plans, the full plan being the default (spec section 6). The response is
 * hijacked from fastify and handed to the stream, which writes frames as they happen. Closing the
 * server closes the stream first (its connections would otherwise keep `close` waiting). Not
 * served when the stream cannot attach clients (see {@link EventStream}).
 */
export function eventsRoutes(app: FastifyInstance, deps: ApiDeps, stream: EventStream, lifecycle?: Pick<RequestLifecycle, 'watchClose'>): void {
  app.addHook('preClose', (done) => {
    stream.close();
    done();
  });
  const attach = stream.attach?.bind(stream);
  if (attach === undefined) return;
  app.route({
    method: 'GET',
    url: '/v2/events',
    // fastify's automatic HEAD route would hijack and stream too: the stream is GET only.
    exposeHeadRoute: false,
    // Never compressed (compression.ts): each event must reach its subscribers at once, not wait in zlib.
    compress: false,
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      if (!acceptsEventStream(request.headers.accept)) throw notAnEventStreamRequest();
      if (stream.isFull?.() === true) throw tooManySubscribers(stream.subscriberLimit ?? MAX_EVENT_SUBSCRIBERS);
      const client = streamClientOf(request);
      reply.hijack();
      // A client that leaves ends the answer by a close, not a finish: its record and metrics come from there.
      lifecycle?.watchClose(request, reply);
      // Gone before it attached: its `close` has passed, so it would never be detached.
      if (request.socket.destroyed) return void reply.raw.destroy();
      reply.raw.writeHead(200, sseHeaders(deps));
      reply.raw.flushHeaders();
      attach(responseSink(reply.raw), client);
    },
  });
}

/**
 * The `plan-format` query: `light` when one of its values is exactly `light`, in that case;
 * otherwise (`LIGHT`, `Light`, `heavy`, empty, absent) the full plan, without an error. This is
 * what Marathon did while it took the parameter (1.6 and 1.7: `HttpEventSSEHandle` tests
 * `getParameterMap.getOrDefault("plan-format", …).contains("light")`, its akka-http `EventsController`
 * `contentEquals("light")`, both case-sensitive, and neither ever refused a value); from 1.8 on
 * Marathon ignores the parameter and only sends light plans. pacer keeps the full plan as the
 * default because service-spec.md section 6, which wins over Marathon's code, gives the plan
 * `original` and `target`; for the parameter's values it follows Marathon 1.7 rather than
 * accepting any case, so a client gets what it got from Marathon for the same request.
 */
export function planFormatOf(query: Query): PlanFormat {
  return queryAll(query, 'plan-format').includes('light') ? 'light' : 'full';
}

function streamClientOf(request: FastifyRequest): StreamClient {
  return {
    remoteAddress: clientAddress(request.socket.remoteAddress),
    eventTypes: queryAll(request.query as Query, 'event_type'),
    planFormat: planFormatOf(request.query as Query),
    // Undefined on a server built without the authorization hook (bench/sse-memory.ts): no view.
    ...(request.access === null || request.access === undefined ? {} : { view: eventViewOf(request.access) }),
  };
}

/**
 * Fact 101: without `Accept: text/event-stream` Marathon's servlet falls back to its default GET,
 * a 405. The catalogue has no 405 factory, hence the ApiError built here.
 */
function notAnEventStreamRequest(): ApiError {
  return new ApiError(405, { message: 'GET /v2/events requires the header Accept: text/event-stream' });
}
