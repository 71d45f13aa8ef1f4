import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';

/** How a {@link ReloadableFile} reads its file. */
export interface ReloadableFileOptions<T> {
  readonly path: string;
  /** What the file is, for messages (`credentials file`, `tokens file`). */
  readonly what: string;
  /** Parses the text; an `{error}` keeps the previous content. Errors must not quote secrets. */
  readonly parse: (text: string) => T | { error: string };
  /** How many entries `content` has, for the reload message. */
  readonly count: (content: T) => number;
  /** Where reloads (`info`) and refusals (`warn`) are reported, one line each. */
  readonly log: (line: string, level?: 'warn') => void;
}

/**
 * A configuration file that can change while pacer runs (credentials, tokens). Read at
 * construction — a file that cannot be read or parsed then throws, so pacer refuses to start
 * with the file's own message — and again on `reload()` (SIGHUP) or when `watch` sees its
 * modification time, size or inode change (an editor's rename included). A reload that fails
 * keeps the previous content and says so: a broken edit never opens or closes the door by itself.
 */
export class ReloadableFile<T> {
  private value: T;
  private listener: ((now: Stats, before: Stats) => void) | undefined;

  constructor(private readonly options: ReloadableFileOptions<T>) {
    const read = this.read();
    if ('problem' in read) throw new Error(`${options.what} ${options.path}: ${read.problem}`);
    this.value = read.content;
  }

  /** The content last read successfully. */
  get content(): T {
    return this.value;
  }

  /** Reads the file again; true when the new content is in use. */
  reload(): boolean {
    const { path, what, log } = this.options;
    const read = this.read();
    if ('problem' in read) {
      log(`${what} ${path}: ${read.problem}; keeping the previous one`, 'warn');
      return false;
    }
    this.value = read.content;
    log(`reloaded the ${what} ${path} (${this.options.count(read.content)} entries)`);
    return true;
  }

  /** Polls the file's metadata every `intervalMs` and reloads on a change; `close()` stops it. */
  watch(intervalMs: number): void {
    if (this.listener !== undefined) return;
    this.listener = (now: Stats, before: Stats) => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) this.reload();
    };
    watchFile(this.options.path, { interval: intervalMs, persistent: false }, this.listener);
  }

  /** Stops watching. */
  close(): void {
    if (this.listener === undefined) return;
    unwatchFile(this.options.path, this.listener);
    this.listener = undefined;
  }

  private read(): { content: T } | { problem: string } {
    let text: string;
    try {
      text = readFileSync(this.options.path, 'utf8');
    } catch (err) {
      return { problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
    }
    const parsed = this.options.parse(text);
    if (isProblem(parsed)) return { problem: parsed.error };
    return { content: parsed };
  }
}

function isProblem(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && typeof (value as { error?: unknown }).error === 'string';
}
