import { isAscii } from 'node:buffer';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { acceptsGzip, COMPRESSION_THRESHOLD_BYTES, gzipChunks, sendUncompressed } from '../compression';

/**
 * A compressed read of a kept answer up to this many bytes waits for its gzip (zlib's fastest
 * level: about 10 ms a MiB); a bigger answer whose gzip is not made yet is sent uncompressed
 * while the gzip is made for the next reads ({@link sendListBody}).
 */
export const LIST_GZIP_WAIT_BYTES = 1024 * 1024;

/** Answers kept per {@link ListBodyCache} (one per list route and server). */
export const LIST_BODY_CACHE_ENTRIES = 4;

/** Bytes of answers kept per {@link ListBodyCache}: 100,000 tasks are about 40 MB. */
export const LIST_BODY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Characters of texts per segment of a kept answer (about its bytes: the lists are mostly ASCII):
 * what one app's change encodes again (its segment) instead of the whole answer, and the size of
 * the chunks an answer is written in.
 */
export const LIST_SEGMENT_CHARS = 256 * 1024;

/**
 * One app's share of a list answer (`GET /v2/apps`: its text, in parts joined by `,` when its
 * tasks are embedded; `GET /v2/tasks`: its tasks' texts),
 * named by `key` (the app id). Each part is the very same string object as last time while
 * nothing it shows has changed (the renderings kept per spec and per task: app-json.ts,
 * task-json.ts), which is how an unchanged piece is recognized without reading its text; a route
 * that kept a whole piece gives the very same `parts` array (list-tasks.ts), recognized at once.
 */
export interface ListPiece {
  readonly key: string;
  readonly parts: readonly string[];
  /**
   * The piece already encoded, when its owner keeps it so ({@link partsBytes} of `parts`, made
   * once per kept `parts` array: list-tasks.ts keeps each app's tasks so, ahead of the read when
   * it can): the answer uses it as the piece's own segment instead of encoding the texts again.
   */
  readonly bytes?: Buffer;
}

/**
 * An answer: its bytes are the chunks in order (`length` in all). Written as they are, never
 * joined into one buffer: one app's change makes one new segment, not a copy of the whole answer
 * (40 MB for 100,000 tasks: 20–160 ms of copying and a fresh 40 MB allocation per change).
 */
export interface ListBody {
  readonly chunks: readonly Buffer[];
  readonly length: number;
}

/** Consecutive pieces encoded together: `bytes` is their parts joined with `,`, and a `,` after the last. */
interface Segment {
  readonly pieces: readonly ListPiece[];
  readonly bytes: Buffer;
}

interface Entry {
  readonly prefix: string;
  readonly suffix: string;
  readonly segments: readonly Segment[];
  readonly body: ListBody;
  /** Bytes of the segments and of the kept gzip (what the entry holds). */
  bytes: number;
  /** The gzip of `body`, made at its first compressed read ({@link ListBodyCache.gzipOf}). */
  gzip?: Promise<Buffer>;
  /** That gzip once made (while kept): what a read sends without waiting ({@link ListBodyCache.readyGzip}). */
  gzipped?: Buffer;
}

/**
 * The encoded answer of a big list (`GET /v2/apps`, `GET /v2/tasks`): `prefix`, every part of
 * every piece joined with `,`, `suffix`, as UTF-8, kept per `key` (the request's query) as
 * segments of consecutive pieces (about {@link LIST_SEGMENT_CHARS} each):
 *
 * - the same {@link ListBody} is answered again while every piece is the same (same key, and
 *   every part the very same string, ===) in the same order, and the prefix and suffix are equal:
 *   an unchanged list costs the pass that checks its pieces, not joining tens of megabytes and
 *   encoding them per request;
 * - when some pieces changed, every segment whose pieces are all the same, in order, is answered
 *   again as it is (found by its first piece's key, so apps added or removed elsewhere do not
 *   make it new); the pieces of the others are joined and encoded afresh into new segments. So
 *   one app's change encodes one segment (≤ 256 kB, or that app's texts if bigger), not the 40 MB
 *   of 100,000 tasks, and copies nothing else (issue 13);
 * - a piece that comes with its `bytes` is its own segment, those very bytes: nothing encoded.
 *
 * A kept answer is never stale: whatever changed gives a new part, hence a new segment. Bounded:
 * at most {@link LIST_BODY_CACHE_ENTRIES} answers and {@link LIST_BODY_CACHE_BYTES} bytes of
 * segments and gzips (an answer replaces the last one of its key, whose segments it reuses), the
 * least recently answered dropped first; an answer bigger than the bound is not kept.
 *
 * The gzip of a kept answer ({@link gzipOf}, for clients that accept it: compression.ts) is made
 * once, at its first compressed read, and kept beside it until the answer is replaced or dropped:
 * an unchanged list is compressed once, not per read. A changed list is compressed whole again
 * (gzip has no segments to reuse), at zlib's fastest level, off the event loop.
 */
export class ListBodyCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = LIST_BODY_CACHE_ENTRIES, private readonly maxBytes = LIST_BODY_CACHE_BYTES,
    private readonly segmentChars = LIST_SEGMENT_CHARS,
    /** A compressed read of an answer up to this size waits for its gzip; a bigger one not gzipped yet goes as it is ({@link sendListBody}). */
    readonly gzipWaitBytes = LIST_GZIP_WAIT_BYTES,
  ) {}

  body(key: string, prefix: string, pieces: readonly ListPiece[], suffix: string): ListBody {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.prefix === prefix && kept.suffix === suffix && samePieces(kept.segments, pieces)) {
        this.entries.set(key, kept);
        return kept.body;
      }
      this.bytes -= kept.bytes;
    }
    const entry = encode(prefix, pieces, suffix, kept, this.segmentChars);
    if (entry.bytes > this.maxBytes) return entry.body;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + entry.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    return entry.body;
  }

  /**
   * The gzip of `body`, an answer {@link body} gave: the one kept beside it while it is kept (made
   * at the first call; reads meanwhile wait for the same one), counted in the bytes bound; a body
   * no longer kept (replaced, dropped, or bigger than the bound) is compressed for this read only.
   */
  gzipOf(body: ListBody): Promise<Buffer> {
    const [key, entry] = this.entryOf(body);
    if (key === undefined || entry === undefined) return gzipChunks(body.chunks);
    if (entry.gzip !== undefined) return entry.gzip;
    const kept = entry;
    const keptKey = key;
    kept.gzip = gzipChunks(body.chunks).then((gz) => {
      // Dropped or replaced meanwhile: nothing to count (the reads waiting get it all the same).
      if (this.entries.get(keptKey) !== kept) return gz;
      kept.gzipped = gz;
      kept.bytes += gz.length;
      this.bytes += gz.length;
      for (const [oldKey, old] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        if (old === kept) continue;
        this.entries.delete(oldKey);
        this.bytes -= old.bytes;
      }
      if (this.bytes > this.maxBytes) {
        // The answer and its gzip alone are over the bound: the gzip is not kept.
        kept.bytes -= gz.length;
        this.bytes -= gz.length;
        kept.gzip = undefined;
        kept.gzipped = undefined;
      }
      return gz;
    }, (err: unknown) => {
      kept.gzip = undefined;
      throw err;
    });
    return kept.gzip;
  }

  /** The gzip kept beside `body` once it is made; undefined while it is not (or `body` is not kept). */
  readyGzip(body: ListBody): Buffer | undefined {
    return this.entryOf(body)[1]?.gzipped;
  }

  /** Starts making the gzip of `body` for the reads after this one, if `body` is kept (else nothing: it would serve no read). */
  prepareGzip(body: ListBody): void {
    if (this.entryOf(body)[1] !== undefined) this.gzipOf(body).catch(() => undefined);
  }

  /** The kept entry of `body` and its key (the last one holding it), or undefineds. */
  private entryOf(body: ListBody): [string | undefined, Entry | undefined] {
    let found: [string | undefined, Entry | undefined] = [undefined, undefined];
    for (const [k, e] of this.entries) if (e.body === body) found = [k, e];
    return found;
  }

  /** Answers kept and their bytes (for tests). */
  size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/**
 * Sends a list answer as JSON (`application/json; charset=utf-8`): one chunk as it is; more as a
 * stream of the chunks with the answer's `content-length` (the same bytes and headers as one
 * buffer would give, no chunked encoding). With `gzips` (compression on: compression.ts), a GET
 * of at least {@link COMPRESSION_THRESHOLD_BYTES} bytes whose client accepts gzip is answered
 * the gzip `gzips` keeps of it, with `Content-Encoding: gzip` and `Vary: accept-encoding`: at
 * once when it is made; after waiting for it when the answer is at most `gzips.gzipWaitBytes`
 * (a few milliseconds of zlib); otherwise the answer goes as it is now (HTTP lets the server send
 * an accepted encoding or none) while its gzip is made for the reads after: a list of 100,000
 * tasks (40 MB) compressed again after each change cost a read about 600 ms, six times the
 * uncompressed answer (bench:api, 2026-12-03).
 */
export function sendListBody(
  reply: FastifyReply, body: ListBody, gzips?: Pick<ListBodyCache, 'gzipOf' | 'readyGzip' | 'prepareGzip' | 'gzipWaitBytes'>,
): FastifyReply | Promise<FastifyReply> {
  void reply.type('application/json; charset=utf-8');
  if (gzips !== undefined && body.length >= COMPRESSION_THRESHOLD_BYTES && acceptsGzip(reply.request)) {
    const ready = gzips.readyGzip(body);
    if (ready !== undefined) return sendGzip(reply, ready);
    if (body.length <= gzips.gzipWaitBytes) return gzips.gzipOf(body).then((gz) => sendGzip(reply, gz));
    gzips.prepareGzip(body);
    sendUncompressed(reply);
  }
  if (body.chunks.length === 1) return reply.send(body.chunks[0]);
  let next = 0;
  const chunks = body.chunks;
  const stream = new Readable({
    read(): void {
      while (next < chunks.length) if (!this.push(chunks[next++])) return;
      this.push(null);
    },
  });
  return reply.header('content-length', String(body.length)).send(stream);
}

function sendGzip(reply: FastifyReply, gz: Buffer): FastifyReply {
  return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(gz);
}

/**
 * The answer for `pieces`: the old answer's segments wherever the pieces continue one of them
 * whole, new segments of the rest; pieces without parts add nothing (no empty element).
 */
function encode(prefix: string, pieces: readonly ListPiece[], suffix: string, old: Entry | undefined, segmentChars: number): Entry {
  const starts = old === undefined || old.segments.length === 0 ? undefined : new Map(old.segments.map((s) => [s.pieces[0].key, s]));
  const segments: Segment[] = [];
  let pending: ListPiece[] = [];
  let pendingChars = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    segments.push(segmentOf(pending));
    pending = [];
    pendingChars = 0;
  };
  for (let i = 0; i < pieces.length;) {
    const piece = pieces[i];
    if (piece.parts.length === 0) {
      i++;
      continue;
    }
    const seg = starts?.get(piece.key);
    const next = seg === undefined ? -1 : continues(seg, pieces, i);
    if (seg !== undefined && next >= 0) {
      flush();
      segments.push(seg);
      i = next;
      continue;
    }
    if (piece.bytes !== undefined) {
      flush();
      segments.push({ pieces: [piece], bytes: piece.bytes });
      i++;
      continue;
    }
    pending.push(piece);
    for (const part of piece.parts) pendingChars += part.length + 1;
    i++;
    if (pendingChars >= segmentChars) flush();
  }
  flush();
  const chunks: Buffer[] = [Buffer.from(prefix, 'utf8')];
  let bytes = 0;
  for (let i = 0; i < segments.length; i++) {
    const b = segments[i].bytes;
    bytes += b.length;
    // The last segment without its trailing `,` (a view, not a copy).
    chunks.push(i === segments.length - 1 ? b.subarray(0, b.length - 1) : b);
  }
  chunks.push(Buffer.from(suffix, 'utf8'));
  let length = 0;
  for (const c of chunks) length += c.length;
  // An answer no bigger than a segment is one buffer (one write); a bigger one is its segments, never copied whole.
  return { prefix, suffix, segments, body: { chunks: length <= segmentChars ? [Buffer.concat(chunks, length)] : chunks, length }, bytes };
}

/** The segment of `pieces`: {@link partsBytes} of all their parts, in order. */
function segmentOf(pieces: readonly ListPiece[]): Segment {
  return { pieces, bytes: partsBytes(pieces.length === 1 ? pieces[0].parts : pieces.flatMap((p) => p.parts)) };
}

/**
 * Every part followed by `,`, as UTF-8: a segment's bytes. Written part by part into one buffer
 * of the parts' lengths (a part's UTF-8 is as long as its text when it is ASCII, which the lists
 * nearly always are) rather than joined into one string and encoded: a third of the CPU (38 MB
 * of task texts: 22–24 vs 74–78 ms warm, measured alone). Every part written whole with as many
 * bytes as characters and the bytes all ASCII (`isAscii`, one vectorized pass) proves every part
 * was ASCII; otherwise (a part with other characters, which may not even have fitted) the parts
 * are joined and encoded: the same bytes either way.
 */
export function partsBytes(parts: readonly string[]): Buffer {
  let chars = 0;
  for (const part of parts) chars += part.length + 1;
  const bytes = Buffer.allocUnsafe(chars);
  let at = 0;
  for (const part of parts) {
    if (bytes.write(part, at, 'utf8') !== part.length) return joinedBytes(parts);
    at += part.length;
    bytes[at++] = COMMA;
  }
  return isAscii(bytes) ? bytes : joinedBytes(parts);
}

const COMMA = 0x2c;

/** {@link partsBytes} by joining and encoding (any text). */
function joinedBytes(parts: readonly string[]): Buffer {
  return Buffer.from(`${parts.join(',')},`, 'utf8');
}

/**
 * Where the pieces from `at` go on after `seg` when they start with all of its pieces, in order
 * (pieces without parts skipped, as they are when segments are made); -1 when they do not.
 */
function continues(seg: Segment, pieces: readonly ListPiece[], at: number): number {
  let i = at;
  for (const kept of seg.pieces) {
    while (i < pieces.length && pieces[i].parts.length === 0) i++;
    if (i >= pieces.length) return -1;
    const piece = pieces[i++];
    if (piece.key !== kept.key || !sameParts(kept.parts, piece.parts)) return -1;
  }
  return i;
}

function samePieces(segments: readonly Segment[], pieces: readonly ListPiece[]): boolean {
  let i = 0;
  for (const seg of segments) {
    i = continues(seg, pieces, i);
    if (i < 0) return false;
  }
  while (i < pieces.length && pieces[i].parts.length === 0) i++;
  return i === pieces.length;
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  // The same array: a piece the route kept whole (list-tasks.ts), checked without reading its texts.
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
