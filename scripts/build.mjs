// `npm run build`: compile pacer (tsc, incremental) and the web UI, and record the inputs built
// from, so that `npm start` right after does not compile again (scripts/build-if-stale.mjs).
// `npm run build -- --no-check` emits without type-checking (CI, right after its typecheck stage).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build-if-stale.mjs';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--no-check');
if (unknown.length > 0) {
  process.stderr.write(`npm run build: unknown argument ${unknown.join(' ')} (only --no-check)\n`);
  process.exitCode = 2;
} else {
  process.exitCode = build(join(dirname(fileURLToPath(import.meta.url)), '..'), { check: !args.includes('--no-check') });
}
