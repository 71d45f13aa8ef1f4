import { parseArgs } from 'node:util';

/**
 * One option of a benchmark. Every value is checked when the command line is read, before any
 * work starts, so a bad value is a one-line usage error (exit 2), never a run that measures
 * something else and says "all work done" (bench/README.md, "Options").
 * - `int`: a whole number in `[min, max]` (without a default, `undefined` when not given:
 *   {@link BenchArgs.maybeNumber});
 * - `ints`: a comma-separated list of such numbers, at least one;
 * - `number`: a finite number in `[min, max]`;
 * - `choice`: one of `choices`;
 * - `string`: any text that is not empty (`undefined` when not given and no default);
 * - `flag`: present or not.
 */
export type BenchOption =
  | { readonly kind: 'int' | 'number'; readonly help: string; readonly default?: number; readonly min: number; readonly max?: number }
  | { readonly kind: 'ints'; readonly help: string; readonly default: readonly number[]; readonly min: number; readonly max?: number }
  | { readonly kind: 'choice'; readonly help: string; readonly default: string; readonly choices: readonly string[] }
  | { readonly kind: 'string'; readonly help: string; readonly default?: string }
  | { readonly kind: 'flag'; readonly help: string };

/** A benchmark's command line: its name (`bench:match`), one line on what it does, and its options by name (without `--`). */
export interface BenchUsage {
  readonly name: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, BenchOption>>;
}

/** A command line a benchmark cannot run: said in one line, exit 2 ({@link runBenchMain}). */
export class UsageError extends Error {}

/** `--help` was asked for: the usage text, printed on stdout, exit 0 ({@link runBenchMain}). */
export class HelpRequested extends Error {}

/** The values of a command line read by {@link readBenchArgs}, each of its option's kind. */
export class BenchArgs {
  constructor(
    private readonly values: ReadonlyMap<string, number | readonly number[] | string | boolean | undefined>,
    private readonly givenNames: ReadonlySet<string>,
  ) {}

  int(name: string): number {
    const value = this.values.get(name);
    if (typeof value !== 'number') throw new Error(`--${name} has no default: read it with maybeNumber (undefined when not given)`);
    return value;
  }

  /** A `number` option (a finite number, not only a whole one). */
  number(name: string): number {
    return this.int(name);
  }

  /** An `int` or `number` option without a default: undefined when it was not given. */
  maybeNumber(name: string): number | undefined {
    return this.values.get(name) as number | undefined;
  }

  ints(name: string): readonly number[] {
    return this.values.get(name) as readonly number[];
  }

  text(name: string): string | undefined {
    return this.values.get(name) as string | undefined;
  }

  flag(name: string): boolean {
    return this.values.get(name) === true;
  }

  /** Whether the option was given on the command line (not its default). */
  given(name: string): boolean {
    return this.givenNames.has(name);
  }
}

/**
 * Reads `argv` against `usage`: unknown options, missing values, values of the wrong kind or out
 * of range and stray arguments throw a {@link UsageError} naming the option; `--help` throws
 * {@link HelpRequested} with the usage text. Node's own `util.parseArgs` splits the line.
 */
export function readBenchArgs(usage: BenchUsage, argv: readonly string[]): BenchArgs {
  const config: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const [name, o] of Object.entries(usage.options)) config[name] = { type: o.kind === 'flag' ? 'boolean' : 'string' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: joinValues(usage, argv), options: config, strict: true, allowPositionals: false });
  } catch (err) {
    throw new UsageError(firstLine((err as Error).message));
  }
  if (parsed.values.help === true) throw new HelpRequested(usageText(usage));
  const values = new Map<string, number | readonly number[] | string | boolean | undefined>();
  const given = new Set<string>();
  for (const [name, o] of Object.entries(usage.options)) {
    const raw = parsed.values[name];
    if (raw !== undefined) given.add(name);
    values.set(name, valueOf(name, o, raw));
  }
  return new BenchArgs(values, given);
}

/**
 * `--name value` as `--name=value` for every option that takes a value, so that a value may
 * start with `-` (`--sizes -5` is then refused for its range, and `--pacer "--flag 1"` passes
 * flags through), which `util.parseArgs` would otherwise read as an option of its own.
 */
function joinValues(usage: BenchUsage, argv: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2).split('=')[0] : undefined;
    if (name !== undefined && seen.has(name)) throw new UsageError(`--${name} is given more than once`);
    if (name !== undefined) seen.add(name);
    const o = name === undefined || argv[i].includes('=') ? undefined : usage.options[name];
    if (o !== undefined && o.kind !== 'flag' && i + 1 < argv.length) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

function valueOf(name: string, o: BenchOption, raw: string | boolean | (string | boolean)[] | undefined): number | readonly number[] | string | boolean | undefined {
  if (Array.isArray(raw)) throw new UsageError(`--${name} is given more than once`);
  if (o.kind === 'flag') return raw === true;
  if (raw === undefined) return o.default;
  const text = String(raw);
  switch (o.kind) {
    case 'int':
    case 'number':
      return checkedNumber(name, o, text);
    case 'ints':
      return text.split(',').map((part) => checkedNumber(name, { ...o, kind: 'int' }, part.trim()));
    case 'choice':
      if (!o.choices.includes(text)) throw new UsageError(`--${name} must be one of ${o.choices.join(', ')} (got '${text}')`);
      return text;
    case 'string':
      if (text === '') throw new UsageError(`--${name} needs a value`);
      return text;
  }
}

function checkedNumber(name: string, o: { kind: 'int' | 'number'; min: number; max?: number }, text: string): number {
  const n = text === '' ? Number.NaN : Number(text);
  const whole = o.kind === 'int';
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) throw new UsageError(`--${name} must be ${whole ? 'a whole number' : 'a number'} (got '${text}')`);
  if (n < o.min || (o.max !== undefined && n > o.max)) {
    throw new UsageError(`--${name} must be ${o.max === undefined ? `at least ${o.min}` : `from ${o.min} to ${o.max}`} (got ${text})`);
  }
  return n;
}

/** The usage text: the summary, then each option with its kind, default and help. */
export function usageText(usage: BenchUsage): string {
  const rows = Object.entries(usage.options).map(([name, o]) => [`--${name}${o.kind === 'flag' ? '' : ` ${placeholder(o)}`}`, describe(o)] as const);
  const width = Math.max(...rows.map(([left]) => left.length), '--help'.length) + 2;
  const lines = [`usage: npm run ${usage.name} -- [options]`, '', usage.summary, '', 'options:'];
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}${right}`);
  lines.push(`  ${'--help'.padEnd(width)}this text`);
  return lines.join('\n');
}

function placeholder(o: BenchOption): string {
  switch (o.kind) {
    case 'int': return 'N';
    case 'number': return 'X';
    case 'ints': return 'N,N,…';
    case 'choice': return o.choices.join('|');
    case 'string': return 'TEXT';
    case 'flag': return '';
  }
}

function describe(o: BenchOption): string {
  switch (o.kind) {
    case 'int':
    case 'number':
    case 'ints': {
      const range = o.max === undefined ? `≥ ${o.min}` : `${o.min}–${o.max}`;
      if (o.default === undefined) return `${o.help} (${range})`;
      const def = Array.isArray(o.default) ? o.default.join(',') : String(o.default);
      return `${o.help} (${range}; default ${def})`;
    }
    case 'choice':
      return `${o.help} (default ${o.default})`;
    case 'string':
      return o.default === undefined ? o.help : `${o.help} (default ${o.default})`;
    case 'flag':
      return o.help;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0].replace(/\. To specify a positional argument.*$/, '.');
}
