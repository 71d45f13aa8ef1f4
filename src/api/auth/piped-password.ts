/**
 * Bytes of a password `npm run passwd` reads from a pipe (docs/limits.md). A Basic `Authorization`
 * header holds at most about 12 KB of password (Node's 16 KiB of headers, base64), so a longer one
 * could never log in; without a bound, `cat /dev/zero | npm run passwd -- u` read until memory ran out.
 */
export const PASSWORD_MAX_BYTES = 4096;

/** Why `password` is refused for its length (typed or piped), or undefined. */
export function passwordTooLong(password: string, maxBytes: number = PASSWORD_MAX_BYTES): string | undefined {
  return Buffer.byteLength(password) > maxBytes ? tooLongMessage(maxBytes) : undefined;
}

function tooLongMessage(maxBytes: number): string {
  return `the password is longer than ${maxBytes} bytes`;
}

/** A piped password, or why it was refused. */
export type PipedPassword = { readonly ok: true; readonly password: string } | { readonly ok: false; readonly error: string };

/**
 * Reads a password piped to `npm run passwd` (one trailing newline dropped), stopping as soon as
 * more than `maxBytes` (plus that newline) arrived: the rest is not read.
 */
export async function readPipedPassword(input: AsyncIterable<Buffer | string>, maxBytes: number = PASSWORD_MAX_BYTES): Promise<PipedPassword> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    bytes += buffer.length;
    if (bytes > maxBytes + 2) return { ok: false, error: tooLongMessage(maxBytes) };
  }
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  const tooLong = passwordTooLong(password, maxBytes);
  return tooLong === undefined ? { ok: true, password } : { ok: false, error: tooLong };
}
