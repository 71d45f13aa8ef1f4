import t from 'tap';
import { BoundedText, MAX_ANSWER_BODY_BYTES, MAX_ANSWER_BODY_CHARS } from '../../../../src/cluster/mesos/transport/bounded-text';

/** The master's answer bodies are kept up to a bound in bytes, whatever it sends (docs/limits.md). */
const CASES: readonly { readonly name: string; readonly chunks: readonly Buffer[]; readonly kept: number; readonly text: string }[] = [
  { name: 'no body (a 202)', chunks: [], kept: 0, text: '' },
  { name: 'a short message in two chunks', chunks: [Buffer.from('Framework '), Buffer.from('is not subscribed')], kept: 27, text: 'Framework is not subscribed' },
  {
    name: '64 MiB in 1 MiB chunks: only the bound is kept',
    chunks: Array.from({ length: 64 }, () => Buffer.alloc(1 << 20, 'x')),
    kept: MAX_ANSWER_BODY_BYTES,
    text: 'x'.repeat(MAX_ANSWER_BODY_CHARS),
  },
  {
    name: 'a chunk that crosses the bound is cut at it',
    chunks: [Buffer.alloc(MAX_ANSWER_BODY_BYTES - 10, 'a'), Buffer.alloc(100, 'b'), Buffer.alloc(5, 'c')],
    kept: MAX_ANSWER_BODY_BYTES,
    text: 'a'.repeat(MAX_ANSWER_BODY_CHARS),
  },
];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const body = new BoundedText();
    for (const chunk of c.chunks) body.push(chunk);
    t.equal(body.keptBytes, c.kept, 'bytes kept');
    t.equal(body.seenBytes, c.chunks.reduce((n, b) => n + b.byteLength, 0), 'every byte read is counted');
    t.equal(body.text(), c.text);
  });
}

t.test('multi-byte characters: the text is at most the character bound, and a character cut at the byte bound is U+FFFD', async (t) => {
  const body = new BoundedText(7);
  body.push(Buffer.from('€€€', 'utf8')); // 9 bytes: the third character is cut after 1 byte
  t.equal(body.keptBytes, 7);
  t.equal(body.text(), '€€\uFFFD');
});
