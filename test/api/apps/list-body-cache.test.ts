import t from 'tap';
import type { Test } from 'tap';
import Fastify from 'fastify';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListBodyCache, partsBytes, sendListBody, type ListBody, type ListPiece } from '../../../src/api/render/list-body-cache';

/** An answer's bytes as text. */
const textOf = (body: ListBody): string => Buffer.concat(body.chunks).toString('utf8');

/**
 * The kept encodings of the big lists (src/api/render/list-body-cache.ts): the same answer while
 * the parts are the same, a new one as soon as any part, the prefix or the suffix differs, only
 * the segments whose pieces changed encoded again (the others answered as the same buffers), and
 * bounded in answers and bytes; a big answer is written as its chunks with its content-length.
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

t.test('the same answer exactly while nothing differs; its bytes are the joined text', async (t) => {
  const cache = new ListBodyCache();
  const bodies: ListBody[] = [];
  for (const [i, step] of STEPS.entries()) {
    const prefix = step.prefix ?? '{"tasks":[';
    const suffix = step.suffix ?? ']}';
    const body = cache.body(step.key, prefix, one(step.parts), suffix);
    bodies.push(body);
    t.equal(textOf(body), `${prefix}${step.parts.join(',')}${suffix}`, `step ${i}: the bytes`);
    t.equal(body.length, Buffer.byteLength(textOf(body)), `step ${i}: its length`);
    if (step.sameAs !== undefined) t.equal(body, bodies[step.sameAs], `step ${i}: the kept answer`);
    else for (const [j, earlier] of bodies.slice(0, -1).entries()) t.not(body, earlier, `step ${i}: not step ${j}'s answer`);
    t.equal(cache.size().entries, step.entriesAfter, `step ${i}: answers kept`);
  }
});

t.test('bounded: the least recently answered go first; an answer over the byte bound is not kept', async (t) => {
  const cache = new ListBodyCache(2, 100);
  const x = cache.body('x', '[', one(['1']), ']');
  cache.body('y', '[', one(['2']), ']');
  t.equal(cache.body('x', '[', one(['1']), ']'), x, 'x answered again: now the most recent');
  cache.body('z', '[', one(['3']), ']');
  t.strictSame(cache.size(), { entries: 2, bytes: 4 }, 'two answers of one 2-byte segment (the text and its `,`)');
  t.equal(cache.body('x', '[', one(['1']), ']'), x, 'x kept, y dropped');
  const big = cache.body('big', '[', one(['9'.repeat(200)]), ']');
  t.equal(big.length, 202);
  t.strictSame(cache.size(), { entries: 2, bytes: 4 }, 'the big answer is not kept and drops nothing');
  cache.body('fill', '[', one(['8'.repeat(96)]), ']');
  t.ok(cache.size().bytes <= 100, `within the byte bound (${cache.size().bytes})`);
});

/**
 * The strings encoded while `fn` runs: given to `Buffer.from` or written into a buffer
 * (`buffer.write`), whole or joined with others.
 */
function encodings(t: Test, fn: () => ListBody): { body: ListBody; texts: string[] } {
  const from = Buffer.from.bind(Buffer) as (value: unknown, encoding?: BufferEncoding) => Buffer;
  const write = Buffer.prototype.write;
  const texts: string[] = [];
  const spy = (value: unknown, encoding?: BufferEncoding): Buffer => {
    if (typeof value === 'string') texts.push(value);
    return from(value, encoding);
  };
  const restore = (): void => {
    (Buffer as unknown as { from: typeof from }).from = from;
    Buffer.prototype.write = write;
  };
  (Buffer as unknown as { from: typeof spy }).from = spy;
  Buffer.prototype.write = function (this: Buffer, ...args: unknown[]): number {
    if (typeof args[0] === 'string') texts.push(args[0]);
    return (write as (...a: unknown[]) => number).apply(this, args);
  } as typeof write;
  t.teardown(restore);
  try {
    return { body: fn(), texts };
  } finally {
    restore();
  }
}

/** The keys of the pieces any of whose parts was encoded (the tests' parts are unique texts). */
const encodedKeys = (pieces: readonly ListPiece[], texts: readonly string[]): string[] =>
  pieces.filter((p) => p.parts.some((part) => texts.some((x) => x.includes(part)))).map((p) => p.key);

interface PieceStep {
  readonly name: string;
  readonly pieces: readonly ListPiece[];
  /** The keys of the pieces that must be encoded afresh (the rest answered as the last answer's segments). */
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
  // One piece per segment (segments of 1 character at least), so that each piece is encoded alone.
  const cache = new ListBodyCache(undefined, undefined, 1);
  for (const step of PIECE_STEPS) {
    const { body, texts } = encodings(t, () => cache.body('', '{"tasks":[', step.pieces, ']}'));
    t.equal(textOf(body), `{"tasks":[${step.pieces.flatMap((p) => p.parts).join(',')}]}`, `${step.name}: the bytes`);
    t.strictSame(encodedKeys(step.pieces, texts), step.encoded, `${step.name}: encoded ${step.encoded.join(', ') || 'no piece'}`);
    // A new answer encodes its prefix and suffix; the kept one nothing at all.
    if (step.kept === true) t.strictSame(texts, [], `${step.name}: nothing encoded`);
    else t.ok(texts.includes('{"tasks":[') && texts.includes(']}'), `${step.name}: its prefix and suffix encoded`);
  }
});

t.test('segments: one changed piece encodes its segment again, the other segments are the same buffers', async (t) => {
  const cache = new ListBodyCache(undefined, undefined, 64);
  // 40 apps of 3 texts of about 20 characters: about one segment per app.
  const apps = Array.from({ length: 40 }, (_, k) => ({ key: `/app-${k}`, parts: [0, 1, 2].map((n) => text(`{"id":"app-${k}.${n}"}`)) }));
  const first = cache.body('', '{"tasks":[', apps, ']}');
  t.ok(first.chunks.length > 10, `written in ${first.chunks.length} chunks`);
  t.equal(textOf(first), `{"tasks":[${apps.flatMap((p) => p.parts).join(',')}]}`, 'the bytes');
  t.equal(first.length, textOf(first).length);
  const changed = apps.map((p, k) => (k === 20 ? { key: p.key, parts: [...p.parts, text('{"id":"new"}')] } : p));
  const { body, texts } = encodings(t, () => cache.body('', '{"tasks":[', changed, ']}'));
  t.equal(textOf(body), `{"tasks":[${changed.flatMap((p) => p.parts).join(',')}]}`, 'after the change: the bytes');
  t.equal(body.length, textOf(body).length, 'after the change: its length');
  const reused = body.chunks.filter((c) => first.chunks.includes(c)).length;
  t.ok(reused >= first.chunks.length - 4, `${reused} of ${first.chunks.length} chunks are the same buffers`);
  // The changed segment's pieces, cut again by size where they no longer fit one segment: at most two.
  const encoded = encodedKeys(changed, texts);
  t.ok(encoded.includes('/app-20') && encoded.length <= 4, `encoded ${encoded.join(', ')}: the changed segment's pieces (in at most two)`);
  const removed = changed.filter((_, k) => k !== 5);
  t.equal(textOf(cache.body('', '{"tasks":[', removed, ']}')), `{"tasks":[${removed.flatMap((p) => p.parts).join(',')}]}`, 'an app removed: the bytes');
});

t.test('a big answer is written as its chunks with its content-length, through inject and over HTTP', async (t) => {
  const parts = Array.from({ length: 5000 }, (_, k) => `{"id":"task-${k}","text":"${'x'.repeat(k % 50)}ü"}`);
  const cache = new ListBodyCache(undefined, undefined, 4096);
  const body = cache.body('', '{"tasks":[', [{ key: '/a', parts: parts.slice(0, 2500) }, { key: '/b', parts: parts.slice(2500) }], ']}');
  const expected = `{"tasks":[${parts.join(',')}]}`;
  t.ok(body.chunks.length > 2, `${body.chunks.length} chunks`);
  const app = Fastify();
  app.get('/list', (_req, reply) => sendListBody(reply.type('application/json; charset=utf-8'), body));
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'GET', url: '/list' });
  t.equal(res.body, expected, 'inject: the bytes');
  t.equal(res.headers['content-length'], String(Buffer.byteLength(expected)), 'inject: content-length');
  await app.listen({ host: '127.0.0.1', port: 0 });
  const got = await new Promise<{ headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: (app.server.address() as AddressInfo).port, path: '/list' }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ headers: r.headers, text: Buffer.concat(chunks).toString('utf8') }));
      r.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  t.equal(got.text, expected, 'HTTP: the bytes');
  t.equal(got.headers['content-length'], String(Buffer.byteLength(expected)), 'HTTP: content-length');
  t.equal(got.headers['transfer-encoding'], undefined, 'HTTP: not chunked');
  t.equal(got.headers['content-type'], 'application/json; charset=utf-8', 'HTTP: content-type');
});

t.test('segments over random changes (adds, removes, changed texts, empty pieces): always the joined text', async (t) => {
  let seed = 13;
  const rand = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (const segmentChars of [1, 30, 200, 100_000]) {
    const cache = new ListBodyCache(undefined, undefined, segmentChars);
    let pieces: ListPiece[] = Array.from({ length: 30 }, (_, k) => ({ key: `/a${k}`, parts: [text(`{"t":"${k}"}`)] }));
    let next = 30;
    let bad = 0;
    for (let step = 0; step < 200; step++) {
      const k = rand(pieces.length + 1);
      const op = rand(4);
      if (op === 0) pieces = [...pieces.slice(0, k), { key: `/a${next++}`, parts: rand(3) === 0 ? [] : [text(`{"t":"${next}"}`)] }, ...pieces.slice(k)];
      else if (op === 1 && k < pieces.length) pieces = pieces.filter((_, i) => i !== k);
      else if (op === 2 && k < pieces.length) pieces = pieces.map((p, i) => (i === k ? { key: p.key, parts: [...p.parts, text(`{"s":${step}}`)] } : p));
      const body = cache.body('', '[', pieces, ']');
      const expected = `[${pieces.flatMap((p) => p.parts).join(',')}]`;
      if (textOf(body) !== expected || body.length !== Buffer.byteLength(expected)) bad++;
    }
    t.equal(bad, 0, `segments of ${segmentChars} characters: every answer right`);
  }
});

/**
 * Segments are written part by part as ASCII and checked; a part with other characters makes its
 * segment encoded from the joined text: the same UTF-8 either way, whatever the characters and
 * wherever they fall (two-byte, three-byte and surrogate-pair characters, a part whose bytes would
 * not have fitted in its characters' room, the last part of a segment, a segment boundary).
 */
t.test('non-ASCII parts are encoded as UTF-8, wherever they fall', async (t) => {
  const texts = ['{"id":"a"}', '{"zone":"éé"}', '{"z":"€"}', '{"e":"😀😀"}', '{"x":"ä"}'];
  const cases: { name: string; parts: string[]; segmentChars: number }[] = [
    { name: 'all ASCII, one segment', parts: [texts[0], texts[0]], segmentChars: 1024 },
    ...texts.slice(1).map((x) => ({ name: `${x} among ASCII parts`, parts: [texts[0], x, texts[0]], segmentChars: 1024 })),
    ...texts.slice(1).map((x) => ({ name: `${x} last`, parts: [texts[0], x], segmentChars: 1024 })),
    { name: 'every part its own segment', parts: texts, segmentChars: 1 },
    { name: 'two parts a segment', parts: [...texts, ...texts], segmentChars: 20 },
  ];
  for (const c of cases) {
    const cache = new ListBodyCache(4, 1 << 20, c.segmentChars);
    const body = cache.body('', '{"tasks":[', one(c.parts), ']}');
    const expected = `{"tasks":[${c.parts.join(',')}]}`;
    t.equal(textOf(body), expected, `${c.name}: the text`);
    t.equal(body.length, Buffer.byteLength(expected), `${c.name}: its length in bytes`);
  }
});

/**
 * A piece that comes encoded (`bytes`: list-tasks.ts keeps each app's tasks so) is its own
 * segment, those very bytes, among pieces encoded at the answer: the same text as when every
 * piece is encoded, and the piece's buffer written as it is (the last one as a view without its
 * `,`).
 */
t.test('pieces with their bytes are answered as those bytes, among encoded ones', async (t) => {
  const texts = ['{"id":"a"}', '{"id":"b","n":"é"}', '{"id":"c"}', '{"id":"d"}'];
  const cases: { name: string; encoded: readonly boolean[] }[] = [
    { name: 'every piece encoded ahead', encoded: [true, true, true, true] },
    { name: 'none', encoded: [false, false, false, false] },
    { name: 'alternating', encoded: [true, false, true, false] },
    { name: 'only the last', encoded: [false, false, false, true] },
    { name: 'only the non-ASCII one', encoded: [false, true, false, false] },
  ];
  for (const c of cases) {
    const pieces: ListPiece[] = texts.map((x, i) => ({ key: `k${i}`, parts: [x, x], ...(c.encoded[i] ? { bytes: partsBytes([x, x]) } : {}) }));
    const expected = `{"tasks":[${texts.flatMap((x) => [x, x]).join(',')}]}`;
    const cache = new ListBodyCache(4, 1 << 20, 16);
    const body = cache.body('', '{"tasks":[', pieces, ']}');
    t.equal(textOf(body), expected, `${c.name}: the text`);
    t.equal(body.length, Buffer.byteLength(expected), `${c.name}: its length`);
    for (const [i, piece] of pieces.entries()) {
      if (piece.bytes === undefined) continue;
      const written = i === pieces.length - 1 ? body.chunks.at(-2) : body.chunks.find((chunk) => chunk === piece.bytes);
      t.ok(written !== undefined && written.buffer === piece.bytes.buffer && written.byteOffset === piece.bytes.byteOffset, `${c.name}: piece ${i} written as its own bytes`);
    }
    t.equal(cache.body('', '{"tasks":[', pieces, ']}'), body, `${c.name}: the same answer again`);
  }
  t.equal(partsBytes(['{"x":"€"}']).toString('utf8'), '{"x":"€"},', 'partsBytes: every part followed by a comma, UTF-8');
});
