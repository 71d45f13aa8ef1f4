import type { FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { appDefinitionJson, type AppDefinitionJsonOptions } from '../../../marathon/render/app-definition-json';
import { requestPath } from '../../request-path';
import { isoTime } from '../../../scheduler/index';
import type { AppSpec } from '../../../scheduler/model/app';

/**
 * Publishes `api_post_event` (spec section 6: an API request that creates, updates or deletes an
 * application; fact 107): `clientIp`, `uri` (the request path, as Marathon's `getRequestURI`
 * gives it, without the query) and `appDefinition`, the app as Marathon's app writer writes it
 * (`api/v2/json/Formats.scala` ApiPostEventWrites: `Raml.toRaml(app)`); a create's app has no
 * `versionInfo` yet (`{versionInfo: false}`, fact 18).
 */
export function publishApiPostEvent(deps: ApiDeps, request: FastifyRequest, app: AppSpec, options: AppDefinitionJsonOptions = {}): void {
  deps.events.publish({
    eventType: 'api_post_event',
    timestamp: isoTime(deps.clock.nowMs()),
    clientIp: request.ip,
    uri: requestPath(request),
    appDefinition: appDefinitionJson(app, options),
  });
}
