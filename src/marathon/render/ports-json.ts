import type { PortDefinition, PortMapping } from '../../scheduler/model/ports';
import { isEmptyMap } from './json-helpers';

/** One of an app's `portDefinitions` (`labels` left out when empty, Marathon's omit-empty). */
export function portDefinitionJson(d: PortDefinition): Record<string, unknown> {
  const json: Record<string, unknown> = { port: d.port, protocol: d.protocol };
  if (d.name !== undefined) json.name = d.name;
  if (!isEmptyMap(d.labels)) json.labels = { ...d.labels };
  return json;
}

/** One of `container.portMappings` (`networkNames` left out when empty, Marathon's omit-empty). */
export function portMappingJson(m: PortMapping): Record<string, unknown> {
  const json: Record<string, unknown> = { containerPort: m.containerPort };
  if (m.hostPort !== undefined) json.hostPort = m.hostPort;
  json.servicePort = m.servicePort;
  json.protocol = m.protocol;
  if (m.name !== undefined) json.name = m.name;
  if (m.labels !== undefined) json.labels = { ...m.labels };
  if (m.networkNames.length > 0) json.networkNames = [...m.networkNames];
  return json;
}
