import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The plotting code the report inlines, read from the installed packages: d3 (Observable Plot's
 * one dependency) and Observable Plot, both as their minified UMD builds, which define the
 * globals `d3` and `Plot` in a page without any loader. Read once per process.
 */
let cached: readonly string[] | undefined;

export function bundledLibraries(): readonly string[] {
  // Both packages' `exports` name their UMD file under the `umd` condition; their main entries
  // resolve to files of the same package, beside `dist/`.
  cached ??= [
    join(dirname(require.resolve('d3')), 'd3.min.js'),
    join(dirname(require.resolve('@observablehq/plot')), '..', 'dist', 'plot.umd.min.js'),
  ].map((file) => readFileSync(file, 'utf8'));
  return cached;
}
