import t from 'tap';
import { ListBodyCache } from '../../../src/api/render/list-body-cache';

/**
 * The kept encodings of the big lists (src/api/render/list-body-cache.ts): the same Buffer while
 * the parts are the same, a new one as soon as any part, the prefix or the suffix differs, and
 * bounded in answers and bytes.
 */

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
    const body = cache.body(step.key, prefix, step.parts, suffix);
    bodies.push(body);
    t.equal(body.toString('utf8'), `${prefix}${step.parts.join(',')}${suffix}`, `step ${i}: the bytes`);
    if (step.sameAs !== undefined) t.equal(body, bodies[step.sameAs], `step ${i}: the kept Buffer`);
    else for (const [j, earlier] of bodies.slice(0, -1).entries()) t.not(body, earlier, `step ${i}: not step ${j}'s Buffer`);
    t.equal(cache.size().entries, step.entriesAfter, `step ${i}: answers kept`);
  }
});

t.test('bounded: the least recently answered go first; an answer over the byte bound is not kept', async (t) => {
  const cache = new ListBodyCache(2, 100);
  const x = cache.body('x', '[', ['1'], ']');
  cache.body('y', '[', ['2'], ']');
  t.equal(cache.body('x', '[', ['1'], ']'), x, 'x answered again: now the most recent');
  cache.body('z', '[', ['3'], ']');
  t.strictSame(cache.size(), { entries: 2, bytes: 6 }, 'two answers of 3 bytes');
  t.equal(cache.body('x', '[', ['1'], ']'), x, 'x kept, y dropped');
  const big = cache.body('big', '[', ['9'.repeat(200)], ']');
  t.equal(big.length, 202);
  t.strictSame(cache.size(), { entries: 2, bytes: 6 }, 'the big answer is not kept and drops nothing');
  cache.body('fill', '[', ['8'.repeat(96)], ']');
  t.ok(cache.size().bytes <= 100, `within the byte bound (${cache.size().bytes})`);
});
