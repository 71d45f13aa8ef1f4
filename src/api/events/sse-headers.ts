import type { OutgoingHttpHeaders } from 'node:http';
import type { ApiConfig } from '../api-deps';

/**
 * Response headers of `/v2/events`. The stream writes the raw response (fastify's hooks do not run
 * on it), so it carries here what the server adds to every other response: fact 101's content type
 * and `Connection: close`, fact 12's no-cache and leader headers.
 */
export function sseHeaders(config: ApiConfig): OutgoingHttpHeaders {
  return {
    'Content-Type': 'text/event-stream;charset=UTF-8',
    Connection: 'close',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
    Pragma: 'no-cache',
    Expires: '0',
    'X-Marathon-Leader': `http://${config.httpAddress}`,
    'X-Frame-Options': 'DENY',
    'X-XSS-Protection': '1; mode=block',
  };
}
