import { resolve } from 'node:path';

/** What the command line touches of the host, injected so the CLI runs in-process in tests. */
export interface CliIo {
  /** Reads a text file; `maxBytes`, when given, is its bound (a larger file, or one that is no regular file, throws before it is read). */
  readFile(path: string, maxBytes?: number): string;
  writeFile(path: string, text: string): void;
  /**
   * Throws, saying why, when a file could not be written at `path` (its directory is missing, or
   * `path` is a directory). The CLI asks before a run, so a bad `--trace` or `--report` path fails
   * at once rather than after the run; without it only the write finds out.
   */
  checkOutput?(path: string): void;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * A wall clock in ms (the process's `performance.now()`): with it a long run prints where it is
   * on stderr every {@link PROGRESS_EVERY_MS} ({@link progressPrinter}); without it (tests) nothing.
   */
  wallMs?(): number;
}

/**
 * Checks each output file of a command before it runs (`io.checkOutput`): false after printing
 * `<who>: cannot write PATH: reason` for the first that cannot be written, or that names the same
 * path as an input (`inputs`: what each is, by path; `--trace` of the scenario file replaced the
 * scenario with the trace) or as another output (`--trace t --report t` kept only the report).
 */
export function checkOutputs(io: CliIo, who: string, paths: readonly (string | undefined)[], inputs: ReadonlyMap<string, string> = new Map()): boolean {
  const seen = new Map<string, string>();
  for (const [path, what] of inputs) seen.set(resolve(path), what);
  for (const path of paths) {
    if (path === undefined) continue;
    const same = seen.get(resolve(path));
    if (same !== undefined) {
      io.stderr(`${who}: cannot write ${path}: it is ${same}; it would be overwritten\n`);
      return false;
    }
    seen.set(resolve(path), 'another output file of this run');
    try {
      io.checkOutput?.(path);
    } catch (err) {
      io.stderr(`${who}: cannot write ${path}: ${(err as Error).message}\n`);
      return false;
    }
  }
  return true;
}

/** Writes an output file; false after printing `<who>: cannot write PATH: reason` when it fails. */
export function writeOutput(io: CliIo, who: string, path: string, text: () => string): boolean {
  try {
    io.writeFile(path, text());
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === undefined) throw err;
    io.stderr(`${who}: cannot write ${path}: ${(err as Error).message}\n`);
    return false;
  }
}
