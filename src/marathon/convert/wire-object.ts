import type { ErrorSink } from './error-sink';
import { childPointer } from './json-pointer';

/** Bounds of a numeric wire field. */
export interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object of a wire definition together with its JSON pointer and the sink its problems go
 * to. Readers never throw: a field of the wrong type or out of range records a message at the
 * field's pointer (play-json keys such as `error.expected.jsnumber`, `error.min`, as Marathon
 * reports shape errors) and yields the fallback, so conversion goes on and collects every problem.
 * `null` counts as absent, as for Marathon's optional fields.
 */
export class WireObject {
  private constructor(
    readonly raw: Readonly<Record<string, unknown>>,
    readonly path: string,
    readonly sink: ErrorSink,
  ) {}

  /** Wraps `value` if it is an object; otherwise records `error.expected.jsobject` at `path`. */
  static of(value: unknown, path: string, sink: ErrorSink): WireObject | undefined {
    if (isRecord(value)) return new WireObject(value, path, sink);
    sink.add(path, 'error.expected.jsobject');
    return undefined;
  }

  /** Pointer of a field of this object. */
  pathOf(key: string | number): string {
    return childPointer(this.path, key);
  }

  /** The field is present and not null. */
  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  /** Records `message` at the pointer of `key` (or at this object when `key` is omitted). */
  fail(key: string | undefined, message: string): void {
    this.sink.add(key === undefined ? this.path : this.pathOf(key), message);
  }

  /** A nested optional object; absent → undefined without a message. */
  child(key: string): WireObject | undefined {
    return this.has(key) ? WireObject.of(this.raw[key], this.pathOf(key), this.sink) : undefined;
  }

  /** An optional array; absent → undefined, a non-array → message and undefined. */
  array(key: string): readonly unknown[] | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (Array.isArray(value)) return value;
    this.fail(key, 'error.expected.jsarray');
    return undefined;
  }

  /** An optional number within `rule`; absent or invalid → undefined. */
  optionalNumber(key: string, rule: NumberRule = {}): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.reject(key, 'error.expected.jsnumber');
    if (rule.integer === true && !Number.isInteger(value)) return this.reject(key, 'error.expected.int');
    if (rule.min !== undefined && value < rule.min) return this.reject(key, 'error.min');
    if (rule.max !== undefined && value > rule.max) return this.reject(key, 'error.max');
    return value;
  }

  /** A number within `rule`, `fallback` when absent or invalid. */
  number(key: string, fallback: number, rule: NumberRule = {}): number {
    return this.optionalNumber(key, rule) ?? fallback;
  }

  /** An optional string; absent or not a string → undefined. */
  optionalString(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value === 'string') return value;
    return this.reject(key, 'error.expected.jsstring');
  }

  /** A string, `fallback` when absent or invalid. */
  string(key: string, fallback: string): string {
    return this.optionalString(key) ?? fallback;
  }

  /** A boolean, `fallback` when absent or invalid. */
  boolean(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const value = this.raw[key];
    if (typeof value === 'boolean') return value;
    return this.reject(key, 'error.expected.jsboolean') ?? fallback;
  }

  /** An optional boolean; absent → undefined, not a boolean → message and undefined. */
  optionalBoolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value === 'boolean') return value;
    return this.reject(key, 'error.expected.jsboolean');
  }

  /** An optional list of strings; absent → undefined; an entry that is not a string is reported and skipped. */
  optionalStrings(key: string): string[] | undefined {
    const list = this.array(key);
    if (list === undefined) return undefined;
    const out: string[] = [];
    list.forEach((item, i) => {
      if (typeof item === 'string') out.push(item);
      else this.sink.add(childPointer(this.pathOf(key), i), 'error.expected.jsstring');
    });
    return out;
  }

  /** A required string: absent → `error.path.missing` and undefined. */
  requiredString(key: string): string | undefined {
    if (!this.has(key)) {
      this.fail(key, 'error.path.missing');
      return undefined;
    }
    return this.optionalString(key);
  }

  private reject(key: string, message: string): undefined {
    this.fail(key, message);
    return undefined;
  }
}
