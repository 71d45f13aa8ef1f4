/**
 * The headers fact 12 puts on every answer: uncacheable, framed nowhere, and naming the leader
 * (`X-Marathon-Leader: <scheme>://<host:port>`) when one is known. One place for both writers:
 * fastify's answers (server.ts `marathonHeaders`) and the event stream's raw response (sse-headers.ts).
 */
export function leaderHeaders(scheme: 'http' | 'https', leader: string | undefined): Readonly<Record<string, string>> {
  return {
    'cache-control': 'no-cache, no-store, must-revalidate', pragma: 'no-cache', expires: '0',
    ...(leader === undefined ? {} : { 'x-marathon-leader': `${scheme}://${leader}` }),
    'x-frame-options': 'DENY', 'x-xss-protection': '1; mode=block',
  };
}
