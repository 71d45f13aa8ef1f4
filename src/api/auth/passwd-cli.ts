#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { hashPassword } from './password-hash';
import { passwordTooLong, readPipedPassword } from './piped-password';

/**
 * `npm run --silent passwd -- USER`: prints one credentials-file line, `USER:$scrypt$…`, for
 * `--http_credentials_file`. The password comes from standard input — typed twice without echo
 * on a terminal, or piped (`printf '%s' "$PW" | npm run --silent passwd -- admin`; one trailing
 * newline is dropped) — never from the command line, where `ps` would show it.
 */
async function main(argv: readonly string[]): Promise<number> {
  const user = argv[0];
  if (user === undefined || argv.length !== 1 || user === '' || user.includes(':') || /\s/.test(user)) {
    process.stderr.write('usage: npm run --silent passwd -- USER   (a user without ":" or spaces; the password is read from stdin)\n');
    return 2;
  }
  const password = process.stdin.isTTY ? await promptTwice() : await readPiped();
  if (password === undefined) return 1;
  const tooLong = passwordTooLong(password);
  if (tooLong !== undefined) {
    process.stderr.write(`passwd: ${tooLong}\n`);
    return 1;
  }
  if (password === '') {
    process.stderr.write('passwd: the password is empty\n');
    return 1;
  }
  process.stdout.write(`${user}:${await hashPassword(password)}\n`);
  return 0;
}

async function promptTwice(): Promise<string | undefined> {
  const first = await askSilently('password: ');
  const second = await askSilently('again: ');
  if (first === second) return first;
  process.stderr.write('passwd: the two passwords differ\n');
  return undefined;
}

function askSilently(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolveLine) => {
    rl.once('line', (line) => {
      rl.close();
      process.stderr.write('\n');
      resolveLine(line);
    });
  });
}

async function readPiped(): Promise<string | undefined> {
  const read = await readPipedPassword(process.stdin as AsyncIterable<Buffer>);
  if (read.ok) return read.password;
  process.stderr.write(`passwd: ${read.error}\n`);
  return undefined;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (err: unknown) => {
  process.stderr.write(`passwd: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
