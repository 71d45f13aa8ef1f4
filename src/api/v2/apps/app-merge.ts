import type { WireApp } from './app-definition';
import { isRecord } from '../../../marathon/convert/wire-object';

/** Never taken from an update: the URL names the app, versions are stamped by the server. */
const NOT_MERGED = new Set(['id', 'version', 'versionInfo']);

/**
 * A partial update (`PUT` with the default `partialUpdate=true`, `PATCH`; fact 41): the stored
 * definition with every top-level field the update gives replacing the stored one; fields the
 * update leaves out (or sets to `null`) keep their stored value. Stored fields that would contradict
 * the update's choice of networking or deprecated field are dropped so that the defaults of the new
 * choice apply (Marathon normalizes the merged app the same way):
 *
 * - `ports` replaces `portDefinitions`, `uris` replaces `fetch`;
 * - non-host `networks` drop the stored `portDefinitions`; host `networks` drop the stored
 *   `container.portMappings`; the deprecated `container.docker.network` drops the stored `networks`,
 *   and the deprecated `ipAddress` drops them and the stored `portDefinitions` (as non-host `networks`).
 */
export function mergeAppUpdate(stored: Readonly<Record<string, unknown>>, update: WireApp): WireApp {
  const out: WireApp = {};
  for (const [key, value] of Object.entries(stored)) if (!NOT_MERGED.has(key)) out[key] = value;
  const given = (key: string): boolean => update[key] !== undefined && update[key] !== null;
  for (const [key, value] of Object.entries(update)) if (!NOT_MERGED.has(key) && given(key)) out[key] = value;
  if (given('ports') && !given('portDefinitions')) delete out.portDefinitions;
  if (given('uris') && !given('fetch')) delete out.fetch;
  if (given('networks')) dropContradictingPorts(out, update, hostNetworking(update.networks));
  if (!given('networks') && legacyDockerNetwork(update.container)) delete out.networks;
  // The deprecated ipAddress asks for IP-per-task networking: it replaces the stored networks, and
  // the stored port definitions (host networking's) go as a non-host `networks` would drop them.
  if (!given('networks') && given('ipAddress')) {
    delete out.networks;
    dropContradictingPorts(out, update, false);
  }
  return out;
}

function dropContradictingPorts(out: WireApp, update: WireApp, host: boolean): void {
  if (!host && update.portDefinitions === undefined && update.ports === undefined) {
    delete out.portDefinitions;
    delete out.ports;
  }
  if (host && update.container === undefined && isRecord(out.container)) {
    const { portMappings: _dropped, ...container } = out.container;
    out.container = container;
  }
}

/**
 * True when the networks list asks for host networking: an empty list does (the default), a
 * network without `mode` is a container network.
 */
function hostNetworking(networks: unknown): boolean {
  if (!Array.isArray(networks) || networks.length === 0) return true;
  return networks.some((n) => isRecord(n) && n.mode === 'host');
}

function legacyDockerNetwork(container: unknown): boolean {
  return isRecord(container) && isRecord(container.docker) && typeof container.docker.network === 'string';
}

