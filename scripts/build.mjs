// `npm run build`: compile pacer (tsc, incremental) and the web UI, and record the inputs built
// from, so that `npm start` right after does not compile again (scripts/build-if-stale.mjs).
// `npm run build -- --no-check` emits without type-checking (CI, right after its typecheck stage).
// `node scripts/build.mjs --if-stale` builds only when an input changed since the last build, as
// `npm start` does (the benchmarks' scripts: their `--help`, or a second run, compiles nothing).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildIfStale } from './build-if-stale.mjs';

const OPTIONS = ['--no-check', '--if-stale'];
const args = process.argv.slice(2);
const unknown = args.filter((a) => !OPTIONS.includes(a));
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (unknown.length > 0) {
  process.stderr.write(`npm run build: unknown argument ${unknown.join(' ')} (only ${OPTIONS.join(', ')})\n`);
  process.exitCode = 2;
} else if (args.includes('--if-stale')) {
  process.exitCode = buildIfStale(root);
} else {
  process.exitCode = build(root, { check: !args.includes('--no-check') });
}
