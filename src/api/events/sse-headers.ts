import type { OutgoingHttpHeaders } from 'node:http';
import type { ApiDeps } from '../api-deps';
import { knownLeader } from '../known-leader';
import { leaderHeaders } from '../leader-headers';

/**
 * Response headers of `/v2/events`. The stream writes the raw response (fastify's hooks do not run
 * on it), so it carries here what the server adds to every other response: fact 101's content type
 * and `Connection: close`, fact 12's no-cache and leader headers (`leaderHeaders`, as server.ts writes them). `X-Marathon-Leader` is the one
 * every other answer carries (server.ts `marathonHeaders`): the leader as this pacer knows it, with
 * the scheme it is reached by (`https` when HTTP is disabled), and no header while none is known.
 */
export function sseHeaders(deps: Pick<ApiDeps, 'config' | 'leaderAddress'>): OutgoingHttpHeaders {
  return {
    'content-type': 'text/event-stream;charset=UTF-8',
    connection: 'close',
    ...leaderHeaders(deps.config.leaderScheme ?? 'http', knownLeader(deps)),
  };
}
