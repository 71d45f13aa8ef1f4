/**
 * Programmer-error check: a violated belief about the core's own state. In production it crashes
 * the process; in the simulator it fails the run, which then prints the seed that reproduces it.
 */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/** Thrown by {@link assert}; never used for expected outcomes (those are values). */
export class AssertionError extends Error {
  constructor(message: string) {
    super(`assertion failed: ${message}`);
    this.name = 'AssertionError';
  }
}
