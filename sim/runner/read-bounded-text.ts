import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SCENARIO_FILE_MAX_BYTES } from '../scenario/scenario-limits';

/** An error of reading an input file, with a `code` like the host's own (the CLIs print those as bad input). */
function inputError(message: string): Error {
  return Object.assign(new Error(message), { code: 'EINVAL' });
}

/**
 * The host's `CliIo.readFile`: reads a regular file of at most `maxBytes` as UTF-8, after checking
 * both on the open file (fstat), so a directory, `/dev/zero`, a pipe or an oversized file is
 * refused before anything is read (`/dev/zero` as a scenario read until memory ran out).
 */
export function readBoundedText(path: string, maxBytes: number = SCENARIO_FILE_MAX_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw inputError(`${path} is not a regular file`);
    if (stat.size > maxBytes) throw inputError(`${path} has ${stat.size} bytes, more than the ${maxBytes} this file may have (docs/limits.md)`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}
