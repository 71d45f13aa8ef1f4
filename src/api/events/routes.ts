import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api-deps';

/** The SSE fan-out behind `/v2/events` (placeholder until the event stream lands). */
export interface EventStream {
  close(): void;
}

/** Placeholder: `GET /v2/events` lands here (issue 5, in progress). */
export function eventsRoutes(_app: FastifyInstance, _deps: ApiDeps, _stream: EventStream): void {
  // Not yet implemented.
}
