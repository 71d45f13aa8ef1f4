/** One media range of an Accept header, with its quality. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/**
 * Server-driven content negotiation (RFC 9110 §12.5.1), as JAX-RS does it for resources that
 * produce several types: the offered type with the highest quality in `accept` wins, ties go to
 * the earlier offered type, the most specific matching range decides a type's quality. No Accept
 * header (or an empty one) accepts anything: the first offered type. Returns undefined when no
 * offered type is acceptable (Marathon's `/ping` then answers 204, fact 96).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (accept === undefined || accept.trim() === '') return offered[0];
  const ranges = parseAccept(accept);
  let best: string | undefined;
  let bestQ = 0;
  for (const type of offered) {
    const q = qualityOf(type, ranges);
    if (q > bestQ) {
      best = type;
      bestQ = q;
    }
  }
  return best;
}

function parseAccept(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const slash = range.indexOf('/');
    if (slash <= 0) continue;
    out.push({ type: range.slice(0, slash), subtype: range.slice(slash + 1), q: qParam(params) });
  }
  return out;
}

function qParam(params: readonly string[]): number {
  for (const p of params) {
    if (!p.startsWith('q=')) continue;
    const q = Number(p.slice(2));
    return Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 1;
  }
  return 1;
}

/** The quality of the most specific range matching `mediaType` (0 when none matches). */
function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let specificity = -1;
  let q = 0;
  for (const r of ranges) {
    const s = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' ? 0 : -1;
    if (s > specificity) {
      specificity = s;
      q = r.q;
    }
  }
  return q;
}
