import type { ConvertError } from './convert-result';

/**
 * Collects validation messages by JSON pointer while a definition is converted, so that every
 * problem is reported at once. One entry per path (messages of the same path are merged, duplicates
 * dropped), in the order the paths were first seen.
 */
export class ErrorSink {
  private readonly byPath = new Map<string, string[]>();

  /** Records `message` at `path`; the root pointer `''` is written as `/`, as Marathon does. */
  add(path: string, message: string): void {
    const key = path === '' ? '/' : path;
    const messages = this.byPath.get(key);
    if (messages === undefined) this.byPath.set(key, [message]);
    else if (!messages.includes(message)) messages.push(message);
  }

  /** True once any message was recorded. */
  get failed(): boolean {
    return this.byPath.size > 0;
  }

  /** The collected errors, one entry per path. */
  details(): ConvertError[] {
    return [...this.byPath].map(([path, errors]) => ({ path, errors: [...errors] }));
  }
}
