import type { ApiDeps } from './api-deps';

/**
 * The leader's `host:port` as this pacer knows it (undefined when none is known): with HA
 * (`deps.leaderAddress`, src/ha/start-ha.ts) its own advertised address exactly while it leads,
 * another's while it stands by; without HA always its own. `X-Marathon-Leader` and `/v2/info` read it.
 */
export function knownLeader(deps: Pick<ApiDeps, 'config' | 'leaderAddress'>): string | undefined {
  return deps.leaderAddress === undefined ? deps.config.httpAddress : deps.leaderAddress();
}
