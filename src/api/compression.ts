import { createGzip, constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCompress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';

/** Answers smaller than this many bytes are sent as they are (the library's default): `/ping`, short errors. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The one encoding answered: gzip, as Marathon's Jetty `GzipHandler` (`HttpModule.scala`). One
 * encoding also means that a kept list answer's gzip (list-body-cache.ts) serves every client that
 * compresses.
 */
const ENCODINGS: ['gzip'] = ['gzip'];

/**
 * Compresses answers, as Marathon with `--http_compression` (its default): a GET answer of at
 * least {@link COMPRESSION_THRESHOLD_BYTES} bytes whose type is compressible (JSON, text) is
 * gzipped when the request's `Accept-Encoding` takes gzip, with `Content-Encoding: gzip` and
 * `Vary: accept-encoding` (@fastify/compress, through a hook on each route's `onSend`).
 *
 * - Only GET, as Jetty 9.4's `GzipHandler` (Marathon's) by default: HEAD answers keep their
 *   uncompressed `content-length` and no body; POST, PUT, PATCH and DELETE answers go as they are.
 * - Never the event stream: `/v2/events` is hijacked (no `onSend` runs) and its route says
 *   `compress: false`; `text/event-stream` is not a compressible type to the library either
 *   (Marathon excludes that type from its handler too).
 * - Request bodies are never inflated (`globalDecompression: false`): a compressed request
 *   body stays refused with 415 (server.ts, `refuseEncodedBodies`).
 * - An answer above the library's `syncThreshold` (8 KiB on a 2-core machine, 4 KiB from 3) is
 *   compressed as a stream, on libuv's thread pool, not on the event loop.
 * - The big lists (`GET /v2/apps`, `GET /v2/tasks`) send the gzip kept beside their kept answer
 *   themselves (list-body-cache.ts); the library passes an answer that has its
 *   `Content-Encoding` already through.
 *
 * Installed before the routes are declared, on the root instance, so that its `onRoute` hook
 * sees them all: fastify runs `onRoute` hooks as a route is declared, and buildServer declares its
 * routes at once, before any registered plugin has loaded. So the library's plugin function is
 * called here directly (it adds its hook and decorator and calls back at once) rather than
 * registered, which would also give it an encapsulated context of its own.
 */
export function installCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // A route of several methods (@fastify/static's `['HEAD', 'GET']`: the UI's files) is a GET route too.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET') && route.compress === undefined) route.compress = false;
  });
  fastifyCompress(app, {
    globalCompression: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ENCODINGS,
  }, (err) => {
    if (err !== undefined) throw err;
  });
}

/**
 * Sends `reply`'s answer as it is, though its client accepts gzip: the library's own opt-out, the
 * `x-no-compression` request header, set on the request (a big list whose gzip is not made yet:
 * list-body-cache.ts `sendListBody`). The answer varies with Accept-Encoding all the same.
 */
export function sendUncompressed(reply: FastifyReply): void {
  reply.request.headers['x-no-compression'] = 'pacer';
  void reply.header('vary', 'accept-encoding');
}

const GZIP_ALIASES = /\*|x-gzip/g;

/**
 * Whether `req` gets a gzipped answer (when the answer is big enough): a GET whose
 * `Accept-Encoding` takes gzip, decided as @fastify/compress decides it (the header lower-cased,
 * `*` and `x-gzip` read as `gzip`, then the same negotiator; `x-no-compression` turns it off).
 */
export function acceptsGzip(req: FastifyRequest): boolean {
  if (req.method !== 'GET' || req.headers['x-no-compression'] !== undefined) return false;
  const header = req.headers['accept-encoding'];
  if (header === undefined) return false;
  return negotiate(header.toLowerCase().replace(GZIP_ALIASES, 'gzip'), ENCODINGS) === 'gzip';
}

/**
 * zlib's level for a kept list answer's gzip ({@link gzipChunks}): the fastest. A list's gzip is
 * made again whole after each change of the list, so its cost counts more than the last few
 * percent of size (`npm run bench:api -- --only lists --accept-encoding gzip` measures the reads).
 */
export const LIST_GZIP_LEVEL = zlibConstants.Z_BEST_SPEED;

/** The gzip of `chunks` in order, compressed on libuv's thread pool (the event loop goes on meanwhile). */
export function gzipChunks(chunks: readonly Buffer[], level = LIST_GZIP_LEVEL): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gzip = createGzip({ level });
    const out: Buffer[] = [];
    gzip.on('data', (b: Buffer) => out.push(b));
    gzip.on('end', () => resolve(Buffer.concat(out)));
    gzip.on('error', reject);
    for (const c of chunks) gzip.write(c);
    gzip.end();
  });
}
