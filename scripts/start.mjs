// `npm start`: compile when the sources changed since the last build, then run pacer in this same
// process (dist/src/main.js reads process.argv as `node dist/src/main.js …` would).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const status = buildIfStale(root);
if (status !== 0) process.exit(status);
await import(pathToFileURL(join(root, 'dist', 'src', 'main.js')).href);
