import type { CliIo } from './cli-io';

/**
 * The value of the option at `argv[index]` (the option itself is `argv[index - 1]`), or, when
 * there is none or the next word is another option (`--trace --quiet`), why not:
 * `--trace needs a file`. A value that really starts with `--` can be written `./--name`; a file
 * is never `-` (which many commands read as stdout), `./-` is.
 */
export function optionValue(argv: readonly string[], index: number, what: string): { value: string } | { problem: string } {
  const value = argv[index];
  if (value === undefined || value.startsWith('--')) return { problem: `${argv[index - 1]} needs ${what}` };
  // Not stdout, as `-` is to many commands: it wrote a file named "-" in the working directory.
  if (what === 'a file' && value === '-') return { problem: `${argv[index - 1]} needs a file, not "-" (stdout holds the summary; a file named "-" can be written ./-)` };
  return { value };
}

/**
 * The command line with every `--name=value` of an option that takes a value (`valued`) written as
 * the two words `--name value`, as the parsers read it (`--seed=5` was "unknown option --seed=5").
 * An empty value (`--trace=`) is no value: `--trace needs a file`. Other words are kept as they are.
 */
export function splitOptionValues(argv: readonly string[], valued: readonly string[]): string[] {
  return argv.flatMap((word) => {
    const equals = word.indexOf('=');
    if (!word.startsWith('--') || equals < 0) return [word];
    const name = word.slice(0, equals);
    if (!valued.includes(name)) return [word];
    const value = word.slice(equals + 1);
    return value === '' ? [name] : [name, value];
  });
}

/**
 * The first of `options` given more than once on `argv` (`--seed 1 --seed 2` took the last one
 * without a word), or undefined: a command line says each thing once, as the benchmarks' do
 * (bench/lib/bench-args.ts). Read after {@link splitOptionValues}; a value never starts with `--`
 * ({@link optionValue}), so only options are counted.
 */
export function repeatedOption(argv: readonly string[], options: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const word of argv) {
    if (!options.includes(word)) continue;
    if (seen.has(word)) return `${word} given twice: give it once`;
    seen.add(word);
  }
  return undefined;
}

/**
 * A mistake on a command line: one line saying what is wrong, one line pointing to the help
 * (`sim: --trace needs a file` / `sim: see npm run sim -- --help`), exit 2. The full usage is for
 * `--help` alone ({@link printUsage}).
 */
export function usageMistake(io: CliIo, who: string, problem: string, helpCommand: string): number {
  io.stderr(`${who}: ${problem}\n${who}: see ${helpCommand}\n`);
  return 2;
}

/** `--help`: the full usage on stdout, exit 0. */
export function printUsage(io: CliIo, usage: string): number {
  io.stdout(`${usage}\n`);
  return 0;
}
