import type { OutgoingHttpHeaders } from 'node:http';
import type { ApiDeps } from '../api-deps';
import { knownLeader } from '../known-leader';

/**
 * Response headers of `/v2/events`. The stream writes the raw response (fastify's hooks do not run
 * on it), so it carries here what the server adds to every other response: fact 101's content type
 * and `Connection: close`, fact 12's no-cache and leader headers. `X-Marathon-Leader` is the one
 * every other answer carries (server.ts `marathonHeaders`): the leader as this pacer knows it, with
 * the scheme it is reached by (`https` when HTTP is disabled), and no header while none is known.
 */
export function sseHeaders(deps: Pick<ApiDeps, 'config' | 'leaderAddress'>): OutgoingHttpHeaders {
  const leader = knownLeader(deps);
  return {
    'Content-Type': 'text/event-stream;charset=UTF-8',
    Connection: 'close',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
    Pragma: 'no-cache',
    Expires: '0',
    ...(leader === undefined ? {} : { 'X-Marathon-Leader': `${deps.config.leaderScheme ?? 'http'}://${leader}` }),
    'X-Frame-Options': 'DENY',
    'X-XSS-Protection': '1; mode=block',
  };
}
