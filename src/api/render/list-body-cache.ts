/** Answers kept per {@link ListBodyCache} (one per list route and server). */
export const LIST_BODY_CACHE_ENTRIES = 4;

/** Bytes of answers kept per {@link ListBodyCache}: 100,000 tasks are about 40 MB. */
export const LIST_BODY_CACHE_BYTES = 64 * 1024 * 1024;

interface Entry {
  readonly prefix: string;
  readonly parts: readonly string[];
  readonly suffix: string;
  readonly body: Buffer;
}

/**
 * The encoded answer of a big list (`GET /v2/apps`, `GET /v2/tasks`), kept with the texts it was
 * joined from: `prefix + parts.join(',') + suffix`, encoded as UTF-8 once, and the same Buffer
 * answered again while every part is the very same string (===) as last time for the same `key`
 * (the request's query). The parts are the renderings kept per app spec and per task
 * (app-json.ts, task-json.ts), which are the same string objects exactly while nothing they show
 * has changed, so a kept answer is never stale: whatever changed gives a new part and a new answer.
 * What a list costs when nothing changed is then the pass that checks its parts, without joining
 * tens of megabytes or encoding them again per request (issue 13: 100,000 tasks within 500 ms).
 * Bounded: at most {@link LIST_BODY_CACHE_ENTRIES} answers and {@link LIST_BODY_CACHE_BYTES} bytes,
 * the least recently answered dropped first; an answer bigger than the bound is not kept.
 */
export class ListBodyCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxEntries = LIST_BODY_CACHE_ENTRIES, private readonly maxBytes = LIST_BODY_CACHE_BYTES) {}

  body(key: string, prefix: string, parts: readonly string[], suffix: string): Buffer {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.prefix === prefix && kept.suffix === suffix && sameParts(kept.parts, parts)) {
        this.entries.set(key, kept);
        return kept.body;
      }
      this.bytes -= kept.body.length;
    }
    const body = Buffer.from(`${prefix}${parts.join(',')}${suffix}`, 'utf8');
    if (body.length > this.maxBytes) return body;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + body.length <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, { prefix, parts, suffix, body });
    this.bytes += body.length;
    return body;
  }

  /** Answers kept and their bytes (for tests). */
  size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
