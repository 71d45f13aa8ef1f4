// `npm run build:tests`: the compiled copy of the repository that `npm test` runs
// (test/runner/run-suite.ts). esbuild transpiles the TypeScript of src/, sim/, bench/, test/ and ui/
// into dist/tests/ (same layout, CommonJS, source maps for stack traces and for c8): the transform
// tsx applies in every process, done once. Type-checking stays `npm run typecheck`'s job. The
// other files of those directories (recorded samples, fixtures, .proto files) are copied
// alongside, so that code reading a file next to itself finds it in either tree.
import { buildSync } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';

const OUT_DIR = 'dist/tests';
const SOURCE_DIRS = ['src', 'sim', 'bench', 'test', 'ui'];

rmSync(OUT_DIR, { recursive: true, force: true });
buildSync({
  entryPoints: SOURCE_DIRS.map((dir) => `${dir}/**/*.ts`),
  outdir: OUT_DIR,
  outbase: '.',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  // The maps point at the TypeScript files, which c8 reads from the repository: copies of them in
  // every map were read and parsed by every test process (coverage caches the map of each module
  // it loads) and written again into each of its coverage files. Same coverage figures.
  sourcesContent: false,
  logLevel: 'warning',
});
for (const dir of SOURCE_DIRS) {
  cpSync(dir, `${OUT_DIR}/${dir}`, { recursive: true, filter: (path) => !path.endsWith('.ts') });
}
