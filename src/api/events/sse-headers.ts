import type { OutgoingHttpHeaders } from 'node:http';
import type { ApiDeps } from '../api-deps';
import { knownLeader } from '../known-leader';
import { leaderHeaders } from '../leader-headers';

/**
 * Response headers of `/v2/events`. The stream writes the raw response (fastify's hooks do not run
 * on it), so it carries here what the server adds to every other response: fact 101's content type
 * and `Connection: close`, and fact 12's headers as every other answer has them ({@link leaderHeaders}):
 * the leader as this pacer knows it, with the scheme it is reached by (`https` when HTTP is
 * disabled), and no `X-Marathon-Leader` while none is known.
 */
export function sseHeaders(deps: Pick<ApiDeps, 'config' | 'leaderAddress'>): OutgoingHttpHeaders {
  return {
    'content-type': 'text/event-stream;charset=UTF-8',
    connection: 'close',
    ...leaderHeaders(deps.config.leaderScheme ?? 'http', knownLeader(deps)),
  };
}
