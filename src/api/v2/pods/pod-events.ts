import type { FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { requestPath } from '../../request-path';
import { isoTime } from '../../../scheduler/index';

/** The event types of pod changes made through the API (spec section 6, fact 107). */
export type PodEventType = 'pod_created_event' | 'pod_updated_event' | 'pod_deleted_event';

/**
 * Publishes a pod change on the event stream: `{clientIp, uri, eventType, timestamp}` (fact 107).
 * `uri` is the request's path without its query string, as Marathon's request URI is.
 */
export function publishPodEvent(deps: ApiDeps, eventType: PodEventType, request: FastifyRequest): void {
  deps.events.publish({
    clientIp: request.ip,
    uri: requestPath(request),
    eventType,
    timestamp: isoTime(deps.clock.nowMs()),
  });
}
