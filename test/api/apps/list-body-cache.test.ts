import t from 'tap';
import type { Test } from 'tap';
import { ListBodyCache, type ListPiece } from '../../../src/api/render/list-body-cache';

/**
 * The kept encodings of the big lists (src/api/render/list-body-cache.ts): the same Buffer while
 * the parts are the same, a new one as soon as any part, the prefix or the suffix differs, only
 * the pieces that changed encoded again, and bounded in answers and bytes.
 */

/** One piece per part, named by its text's id (the tests' parts are `{"id":…}`). */
const one = (parts: readonly string[]): ListPiece[] => parts.map((p) => ({ key: p.slice(0, 10), parts: [p] }));

interface Step {
  readonly key: string;
  readonly parts: readonly string[];
  readonly prefix?: string;
  readonly suffix?: string;
  /** Whether the answer must be the Buffer answered at step `sameAs` (an index), or a new one. */
  readonly sameAs?: number;
  readonly entriesAfter: number;
}

const a = '{"id":"a"}';
const b = '{"id":"b"}';
const changed = '{"id":"b","x":1}';

const STEPS: readonly Step[] = [
  { key: '', parts: [a, b], entriesAfter: 1 },
  { key: '', parts: [a, b], sameAs: 0, entriesAfter: 1 },
  { key: '', parts: [a, `{"id":"${'b'}"}`], sameAs: 0, entriesAfter: 1 }, // equal text, another string object
  { key: '', parts: [a, changed], entriesAfter: 1 },
  { key: '', parts: [a], entriesAfter: 1 },
  { key: 'status=running', parts: [a], entriesAfter: 2 },
  { key: '', parts: [a], sameAs: 4, entriesAfter: 2 },
  { key: '', parts: [a], prefix: '{"apps":[', entriesAfter: 2 },
  { key: '', parts: [], entriesAfter: 2 },
];

t.test('the same Buffer exactly while nothing differs; its bytes are the joined text', async (t) => {
  const cache = new ListBodyCache();
  const bodies: Buffer[] = [];
  for (const [i, step] of STEPS.entries()) {
    const prefix = step.prefix ?? '{"tasks":[';
    const suffix = step.suffix ?? ']}';
    const body = cache.body(step.key, prefix, one(step.parts), suffix);
    bodies.push(body);
    t.equal(body.toString('utf8'), `${prefix}${step.parts.join(',')}${suffix}`, `step ${i}: the bytes`);
    if (step.sameAs !== undefined) t.equal(body, bodies[step.sameAs], `step ${i}: the kept Buffer`);
    else for (const [j, earlier] of bodies.slice(0, -1).entries()) t.not(body, earlier, `step ${i}: not step ${j}'s Buffer`);
    t.equal(cache.size().entries, step.entriesAfter, `step ${i}: answers kept`);
  }
});

t.test('bounded: the least recently answered go first; an answer over the byte bound is not kept', async (t) => {
  const cache = new ListBodyCache(2, 100);
  const x = cache.body('x', '[', one(['1']), ']');
  cache.body('y', '[', one(['2']), ']');
  t.equal(cache.body('x', '[', one(['1']), ']'), x, 'x answered again: now the most recent');
  cache.body('z', '[', one(['3']), ']');
  t.strictSame(cache.size(), { entries: 2, bytes: 6 }, 'two answers of 3 bytes');
  t.equal(cache.body('x', '[', one(['1']), ']'), x, 'x kept, y dropped');
  const big = cache.body('big', '[', one(['9'.repeat(200)]), ']');
  t.equal(big.length, 202);
  t.strictSame(cache.size(), { entries: 2, bytes: 6 }, 'the big answer is not kept and drops nothing');
  cache.body('fill', '[', one(['8'.repeat(96)]), ']');
  t.ok(cache.size().bytes <= 100, `within the byte bound (${cache.size().bytes})`);
});

/** Counts the strings encoded (Buffer.from of a string) while `fn` runs, and their characters. */
function encodings(t: Test, fn: () => Buffer): { body: Buffer; strings: number; chars: number } {
  const from = Buffer.from.bind(Buffer) as (value: unknown, encoding?: BufferEncoding) => Buffer;
  let strings = 0;
  let chars = 0;
  const spy = (value: unknown, encoding?: BufferEncoding): Buffer => {
    if (typeof value === 'string') {
      strings++;
      chars += value.length;
    }
    return from(value, encoding);
  };
  (Buffer as unknown as { from: typeof spy }).from = spy;
  t.teardown(() => void ((Buffer as unknown as { from: typeof from }).from = from));
  try {
    return { body: fn(), strings, chars };
  } finally {
    (Buffer as unknown as { from: typeof from }).from = from;
  }
}

interface PieceStep {
  readonly name: string;
  readonly pieces: readonly ListPiece[];
  /** The keys of the pieces that must be encoded afresh (the rest copied from the last answer). */
  readonly encoded: readonly string[];
  /** The last answer's Buffer itself is answered (nothing encoded, not even the prefix). */
  readonly kept?: boolean;
}

// Each part its own string object (=== compares strings by their text, so an equal text in
// another object is no change).
const text = (s: string): string => [...s].join('');
const pa = { key: '/a', parts: [text('{"t":"a1"}'), text('{"t":"a2"}')] };
const pb = { key: '/b', parts: [text('{"t":"b1"}')] };
const pc = { key: '/c', parts: [text('{"t":"c1"}'), text('{"t":"ü"}')] };
const pb2 = { key: '/b', parts: [pb.parts[0], text('{"t":"b2"}')] };
const pd = { key: '/d', parts: [text('{"t":"d1"}')] };

const PIECE_STEPS: readonly PieceStep[] = [
  { name: 'first answer: every piece encoded', pieces: [pa, pb, pc], encoded: ['/a', '/b', '/c'] },
  { name: 'nothing changed', pieces: [pa, pb, pc], encoded: [], kept: true },
  { name: 'one task more in /b: only /b', pieces: [pa, pb2, pc], encoded: ['/b'] },
  { name: 'an app without tasks (an empty piece) adds nothing', pieces: [pa, { key: '/e', parts: [] }, pb2, pc], encoded: [], kept: true },
  { name: 'an app added in the middle: only it', pieces: [pa, pd, pb2, pc], encoded: ['/d'] },
  { name: 'an app removed, two swapped: nothing new', pieces: [pc, pa, pb2], encoded: [] },
  { name: 'an equal text in another string object: the kept answer', pieces: [pc, pa, { key: '/b', parts: [text(pb2.parts[0]), pb2.parts[1]] }], encoded: [], kept: true },
  { name: 'one text changed in the first piece', pieces: [{ key: '/c', parts: [pc.parts[0], text('{"t":"c2"}')] }, pa, pb2], encoded: ['/c'] },
  { name: 'no piece at all', pieces: [], encoded: [] },
  { name: 'after an empty answer, every piece again', pieces: [pa], encoded: ['/a'] },
];

t.test('only the pieces that changed are encoded again; the answer is always the whole joined text', async (t) => {
  const cache = new ListBodyCache();
  for (const step of PIECE_STEPS) {
    const { body, strings, chars } = encodings(t, () => cache.body('', '{"tasks":[', step.pieces, ']}'));
    t.equal(body.toString('utf8'), `{"tasks":[${step.pieces.flatMap((p) => p.parts).join(',')}]}`, `${step.name}: the bytes`);
    const fresh = step.pieces.filter((p) => step.encoded.includes(p.key));
    const freshChars = fresh.reduce((n, p) => n + p.parts.join(',').length, 0);
    const ends = step.kept === true ? 0 : 2; // a new answer encodes its prefix and suffix
    t.strictSame({ strings, chars }, { strings: fresh.length + ends, chars: freshChars + (ends === 0 ? 0 : '{"tasks":[]}'.length) }, `${step.name}: encoded ${step.encoded.join(', ') || 'no piece'}`);
  }
});
