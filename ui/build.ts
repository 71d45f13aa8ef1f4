import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { uiDistDir } from '../src/api/ui/ui-dir';
import { packageRoot } from '../src/runtime/package-root';

/**
 * The UI's sources: `ui/` of the repository, also when this module runs from the compiled test
 * tree (`dist/tests/ui`), which holds transpiled copies that must not be bundled.
 */
const UI_SRC = join(packageRoot(__dirname), 'ui');

/** What {@link buildUi} wrote: the files (relative to `outDir`) and their sizes in bytes. */
export interface UiBuild {
  readonly outDir: string;
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
}

/**
 * Bundles the web UI into `outDir` (default `dist/ui`, where pacer serves it from): `index.html`,
 * `assets/app.js` (Preact and the app, minified ES2022, no source map) and `assets/app.css`
 * (minified). Everything is local: no CDN, so the UI works offline. Each file is replaced
 * atomically (written beside it, then renamed), so a server or a test reading the folder while
 * another build runs sees either the old or the new file, never a partial one.
 */
export async function buildUi(outDir: string = uiDistDir(__dirname)): Promise<UiBuild> {
  const result = await build({
    entryPoints: [{ in: join(UI_SRC, 'src', 'main.tsx'), out: 'app' }, { in: join(UI_SRC, 'src', 'app.css'), out: 'app' }],
    outdir: join(outDir, 'assets'),
    write: false,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = [
    ...result.outputFiles.map((f) => ({ path: f.path, contents: f.contents })),
    { path: join(outDir, 'index.html'), contents: readFileSync(join(UI_SRC, 'index.html')) },
  ];
  for (const file of outputs) replaceFile(file.path, file.contents);
  const files = outputs.map((f) => ({ path: relative(outDir, f.path), bytes: statSync(f.path).size })).sort((a, b) => a.path.localeCompare(b.path));
  return { outDir, files };
}

function replaceFile(path: string, contents: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

if (require.main === module) {
  buildUi().then((out) => {
    const sizes = out.files.map((f) => `${f.path} ${(f.bytes / 1024).toFixed(1)} KiB`).join(', ');
    process.stdout.write(`ui: built ${relative(process.cwd(), out.outDir) || '.'}: ${sizes}\n`);
  }, (err: unknown) => {
    process.stderr.write(`ui: build failed: ${(err as Error).message}\n`);
    process.exitCode = 1;
  });
}
