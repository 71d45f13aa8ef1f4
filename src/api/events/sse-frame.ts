import type { WireEvent } from './wire-event';

/**
 * The keep-alive: a bare CRLF, as Marathon's stream sends about every 10 s (fact 102). To an SSE
 * client it is an empty line with no data before it, so it dispatches nothing.
 */
export const KEEP_ALIVE_FRAME: Buffer = Buffer.from('\r\n', 'latin1');

/**
 * One event as an SSE frame: `event: <eventType>\r\ndata: <one-line JSON>\r\n\r\n` (fact 102: the
 * `event:` name equals the JSON's `eventType`, CRLF line ends). `JSON.stringify` escapes every line
 * break inside strings, so the data is always one line. The result is a Buffer so that one
 * serialization is shared by every subscriber's socket without re-encoding.
 */
export function sseFrame(event: WireEvent): Buffer {
  return Buffer.from(`event: ${event.eventType}\r\ndata: ${JSON.stringify(event)}\r\n\r\n`, 'utf8');
}
