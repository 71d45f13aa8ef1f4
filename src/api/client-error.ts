import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What a request that Node's HTTP parser refuses before any route sees it is answered
 * (fastify's `clientErrorHandler`): the status fastify's own handler gives — 431 for a request
 * line and headers over Node's `maxHeaderSize` (16 KiB unless `--max-http-header-size` changes
 * it), 408 for a request not received in time, 400 for bytes that are not HTTP/1.1 — with a body
 * in Marathon's error shape, `{"message": …}`, as every other error of the API
 * (src/api/errors.ts), not fastify's `{error, message, statusCode}`. The connection is closed
 * after it, as Node closes it. A reset connection is answered nothing.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = clientErrorAnswer(err.code);
  const body = JSON.stringify({ message });
  // An answer to HEAD has no body (RFC 9110 §9.3.2), only the length a GET's would have, as
  // Node writes the routed answers to HEAD. The method is read from the bytes the parser refused
  // (`rawPacket`), when they start the request.
  const payload = isHead((err as { rawPacket?: unknown }).rawPacket) ? '' : body;
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${payload}`);
  }
  socket.destroy();
}

/** Whether the refused bytes start a HEAD request. */
export function isHead(rawPacket: unknown): boolean {
  return Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/** The status and message for a parser error of this code. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, message: `The request line and headers are larger than the limit of ${maxHeaderSize} bytes` };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request was not received in time' };
  return { status: 400, message: 'The request is not valid HTTP/1.1' };
}
