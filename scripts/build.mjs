// `npm run build`: compile pacer (tsc, incremental) and the web UI, and record the inputs built
// from, so that `npm start` right after does not compile again (scripts/build-if-stale.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build-if-stale.mjs';

process.exitCode = build(join(dirname(fileURLToPath(import.meta.url)), '..'));
