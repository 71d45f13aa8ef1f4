/** Answers kept per {@link ListBodyCache} (one per list route and server). */
export const LIST_BODY_CACHE_ENTRIES = 4;

/** Bytes of answers kept per {@link ListBodyCache}: 100,000 tasks are about 40 MB. */
export const LIST_BODY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * One app's share of a list answer (`GET /v2/apps`: its text; `GET /v2/tasks`: its tasks' texts),
 * named by `key` (the app id). Each part is the very same string object as last time while
 * nothing it shows has changed (the renderings kept per spec and per task: app-json.ts,
 * task-json.ts), which is how an unchanged piece is recognized without reading its text.
 */
export interface ListPiece {
  readonly key: string;
  readonly parts: readonly string[];
}

/** A piece as it was encoded into an answer: its bytes are `body[start, end)` (no separator). */
interface KeptPiece {
  readonly key: string;
  readonly parts: readonly string[];
  readonly start: number;
  readonly end: number;
}

interface Entry {
  readonly prefix: string;
  readonly suffix: string;
  readonly pieces: readonly KeptPiece[];
  readonly body: Buffer;
}

const COMMA = Buffer.from(',', 'utf8');

/**
 * The encoded answer of a big list (`GET /v2/apps`, `GET /v2/tasks`): `prefix`, every part of
 * every piece joined with `,`, `suffix`, as UTF-8, kept per `key` (the request's query):
 *
 * - the same Buffer is answered again while every part of every piece is the very same string
 *   (===) as last time, and the prefix and suffix are equal: an unchanged list costs the pass
 *   that checks its parts, not joining tens of megabytes and encoding them per request;
 * - when some pieces changed, only those are joined and encoded again: the bytes of the others
 *   are copied from the last answer, so one app's change re-encodes that app's text or tasks (a
 *   few kB), not the 40 MB of 100,000 tasks (issue 13). A piece is found again by its key, so
 *   apps added or removed before it do not make it new.
 *
 * A kept answer is never stale: whatever changed gives a new part, hence a new encoding of its
 * piece. Bounded: at most {@link LIST_BODY_CACHE_ENTRIES} answers and {@link LIST_BODY_CACHE_BYTES}
 * bytes of answers (the pieces are views of their answer, not copies), the least recently answered
 * dropped first; an answer bigger than the bound is not kept.
 */
export class ListBodyCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxEntries = LIST_BODY_CACHE_ENTRIES, private readonly maxBytes = LIST_BODY_CACHE_BYTES) {}

  body(key: string, prefix: string, pieces: readonly ListPiece[], suffix: string): Buffer {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.prefix === prefix && kept.suffix === suffix && samePieces(kept.pieces, pieces)) {
        this.entries.set(key, kept);
        return kept.body;
      }
      this.bytes -= kept.body.length;
    }
    const entry = encode(prefix, pieces, suffix, kept);
    const body = entry.body;
    if (body.length > this.maxBytes) return body;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + body.length <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += body.length;
    return body;
  }

  /** Answers kept and their bytes (for tests). */
  size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/**
 * The answer for `pieces`, each piece's bytes copied from `old` when it holds the piece (same key,
 * same parts) and encoded afresh otherwise; pieces without parts add nothing (no empty element).
 */
function encode(prefix: string, pieces: readonly ListPiece[], suffix: string, old: Entry | undefined): Entry {
  const chunks: Buffer[] = [Buffer.from(prefix, 'utf8')];
  const ranges: { key: string; parts: readonly string[]; bytes: Buffer }[] = [];
  const oldByKey = old === undefined ? undefined : new OldPieces(old);
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.parts.length === 0) continue;
    const reused = oldByKey?.find(piece);
    const bytes = reused ?? Buffer.from(piece.parts.length === 1 ? piece.parts[0] : piece.parts.join(','), 'utf8');
    if (ranges.length > 0) chunks.push(COMMA);
    chunks.push(bytes);
    ranges.push({ key: piece.key, parts: piece.parts, bytes });
  }
  chunks.push(Buffer.from(suffix, 'utf8'));
  const body = Buffer.concat(chunks);
  const kept: KeptPiece[] = new Array<KeptPiece>(ranges.length);
  let at = chunks[0].length;
  for (let i = 0; i < ranges.length; i++) {
    if (i > 0) at += COMMA.length;
    const r = ranges[i];
    kept[i] = { key: r.key, parts: r.parts, start: at, end: at + r.bytes.length };
    at += r.bytes.length;
  }
  return { prefix, suffix, pieces: kept, body };
}

/** The pieces of the last answer, looked up where the last one found was followed first, then by key. */
class OldPieces {
  private byKey: Map<string, number> | undefined;
  private next = 0;

  constructor(private readonly old: Entry) {}

  /** The bytes of `piece` in the old answer if it is there with the same parts. */
  find(piece: ListPiece): Buffer | undefined {
    const pieces = this.old.pieces;
    let at = this.next < pieces.length && pieces[this.next].key === piece.key ? this.next : -1;
    if (at < 0) {
      if (this.byKey === undefined) this.byKey = new Map(pieces.map((p, i) => [p.key, i]));
      at = this.byKey.get(piece.key) ?? -1;
    }
    if (at < 0) return undefined;
    this.next = at + 1;
    const kept = pieces[at];
    return sameParts(kept.parts, piece.parts) ? this.old.body.subarray(kept.start, kept.end) : undefined;
  }
}

function samePieces(kept: readonly KeptPiece[], pieces: readonly ListPiece[]): boolean {
  let k = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.parts.length === 0) continue;
    if (k >= kept.length) return false;
    const old = kept[k++];
    if (old.key !== piece.key || !sameParts(old.parts, piece.parts)) return false;
  }
  return k === kept.length;
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  // The same array: a piece the route kept whole (list-tasks.ts), checked without reading its texts.
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
