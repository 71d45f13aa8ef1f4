import { Readable } from 'node:stream';
import t from 'tap';
import { PASSWORD_MAX_BYTES, readPipedPassword } from '../../../src/api/auth/piped-password';

// `npm run passwd` reads a piped password up to PASSWORD_MAX_BYTES and no further: before, a pipe
// of /dev/zero was read until memory ran out.

const cases: readonly [string, readonly string[], string | RegExp][] = [
  ['one trailing newline is dropped', ['secret\n'], 'secret'],
  ['a CRLF too, one only', ['secret\r\n\n'], 'secret\r\n'],
  ['in chunks', ['se', 'cr', 'et'], 'secret'],
  ['exactly the bound', ['x'.repeat(PASSWORD_MAX_BYTES), '\n'], 'x'.repeat(PASSWORD_MAX_BYTES)],
  ['one byte over', ['x'.repeat(PASSWORD_MAX_BYTES + 1)], /longer than 4096 bytes/],
  ['multi-byte characters count as bytes', ['é'.repeat(PASSWORD_MAX_BYTES / 2 + 1)], /longer than 4096 bytes/],
];

for (const [name, chunks, want] of cases) {
  t.test(name, async (t) => {
    const read = await readPipedPassword(Readable.from(chunks.map((c) => Buffer.from(c))));
    if (typeof want === 'string') t.strictSame(read, { ok: true, password: want });
    else t.match(read, { ok: false, error: want });
  });
}

t.test('an endless pipe is not read past the bound', async (t) => {
  let pulled = 0;
  async function* endless(): AsyncGenerator<Buffer> {
    for (;;) {
      pulled++;
      yield Buffer.alloc(65_536);
    }
  }
  const read = await readPipedPassword(endless());
  t.equal(read.ok, false);
  t.equal(pulled, 1, 'one chunk of 64 KiB, then it stopped');
});
