import type { FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { requestPath } from '../../request-path';
import { isoTime } from '../../../scheduler/kernel/iso-time';

/**
 * Publishes `api_post_event` (spec section 6: an API request that creates, updates or deletes an
 * application; fact 107): `clientIp`, `uri` (the request path, as Marathon's `getRequestURI`
 * gives it, without the query) and `appDefinition`, the app as fact 18 writes it.
 */
export function publishApiPostEvent(deps: ApiDeps, request: FastifyRequest, appDefinition: Readonly<Record<string, unknown>>): void {
  deps.events.publish({
    eventType: 'api_post_event',
    timestamp: isoTime(deps.clock.nowMs()),
    clientIp: request.ip,
    uri: requestPath(request),
    appDefinition,
  });
}
