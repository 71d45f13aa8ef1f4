// `npm start`'s build step: runs tsc only when an input of the build changed since the last one,
// so a restart (or --help) costs a few file stats instead of a whole compilation. Plain
// JavaScript, because it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What tsc -p tsconfig.build.json compiles (its `include`, and the JavaScript it copies), the web UI's sources, and the files that configure them. */
export const INPUT_DIRS = ['src', 'sim', 'bench', 'ui'];
export const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** Output directories of programs, not inputs of the build. */
const SKIPPED_DIRS = new Set(['bench/results']);
/** The fingerprint of the inputs the last successful build saw. */
export const STAMP = join('dist', '.build-inputs');
/** tsc's own record of an incremental build. */
export const TS_BUILD_INFO = join('dist', '.tsbuildinfo');
/** The entry point the build must have produced. */
export const OUTPUT = join('dist', 'src', 'main.js');
/** The web UI's build script and the page it must have produced (`npm run build:ui`). */
export const UI_BUILD = join('ui', 'build.ts');
export const UI_OUTPUT = join('dist', 'ui', 'index.html');

/** Whether `root` has a web UI to build (this repository does; a tiny test project may not). */
function hasUi(root) {
  return existsSync(join(root, UI_BUILD));
}

function walk(root, dir, out) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(path)) walk(root, path, out);
    } else if (/\.(c|m)?[tj]sx?$|\.json$|\.css$|\.html$/.test(entry.name)) {
      out.push(path);
    }
  }
}

/**
 * The inputs of the build under `root` as one hash: every TypeScript, JavaScript and JSON file of the input
 * directories and the configuration files, each by path, size and modification time (an edit,
 * an added or a deleted file changes it).
 */
export function inputFingerprint(root) {
  const files = [];
  for (const dir of INPUT_DIRS) walk(root, dir, files);
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) files.push(file);
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const s = statSync(join(root, file));
    hash.update(`${file}\t${s.size}\t${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** What tsc compiles (tsconfig.build.json's `include`): plain JavaScript files in them are copied as they are. */
const COMPILED_DIRS = ['src', 'sim', 'bench'];

/**
 * Copies the plain JavaScript modules of the compiled directories beside tsc's output
 * (`src/generated/*.js`: ajv's validators, generated ahead of time by `npm run gen:validators`;
 * tsc, without `allowJs`, reads only their `.d.ts`).
 */
function copyJavaScript(root) {
  const files = [];
  for (const dir of COMPILED_DIRS) walk(root, dir, files);
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    mkdirSync(join(root, 'dist', dirname(file)), { recursive: true });
    copyFileSync(join(root, file), join(root, 'dist', file));
  }
}

/** True when `root`'s build output is missing or was built from other inputs. */
export function isStale(root) {
  if (!existsSync(join(root, OUTPUT)) || (hasUi(root) && !existsSync(join(root, UI_OUTPUT)))) return true;
  try {
    return readFileSync(join(root, STAMP), 'utf8') !== inputFingerprint(root);
  } catch {
    return true;
  }
}

/**
 * Builds `root` with tsc (incremental: only what changed is compiled again) when it is stale, and
 * records the inputs it built from. Returns tsc's exit status (0 when nothing had to be done).
 * `log` receives one line when a build starts.
 */
export function buildIfStale(root, log = (line) => process.stderr.write(`${line}\n`)) {
  if (!isStale(root)) return 0;
  // A fresh clone has no build at all: say so rather than "changed".
  const first = !existsSync(join(root, OUTPUT));
  log(first
    ? 'pacer: no build yet: compiling (tsc, then the web UI; only the first start takes this long) …'
    : 'pacer: sources changed since the last build: compiling (tsc --incremental, then the web UI) …');
  return build(root);
}

/**
 * `npm run build`: tsc (incremental), the plain JavaScript modules copied beside its output, and
 * the web UI, then the fingerprint of the inputs, so that
 * the next `npm start` knows the build is current. Returns the exit status.
 *
 * `check: false` (`npm run build -- --no-check`, for CI, whose typecheck stage has just checked
 * every file this compiles, with the same options): tsc emits without type-checking
 * (`--noCheck --isolatedModules`: each file on its own, about half the CPU), the same JavaScript
 * and source maps byte for byte.
 */
export function build(root, { check = true } = {}) {
  // Taken before compiling: a file edited during the build makes the next start build again.
  const fingerprint = inputFingerprint(root);
  // tsc's incremental record does not notice deleted outputs: without the entry point, start over.
  if (!existsSync(join(root, OUTPUT))) rmSync(join(root, TS_BUILD_INFO), { force: true });
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const noCheck = check ? [] : ['--noCheck', '--isolatedModules'];
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', TS_BUILD_INFO, ...noCheck], { cwd: root, stdio: 'inherit' });
  let status = run.status ?? 1;
  if (status === 0) copyJavaScript(root);
  if (status === 0 && hasUi(root)) {
    // The web UI (esbuild, about a second): the same step as `npm run build:ui`.
    const tsx = createRequire(join(root, 'package.json')).resolve('tsx/cli');
    status = spawnSync(process.execPath, [tsx, UI_BUILD], { cwd: root, stdio: 'inherit' }).status ?? 1;
  }
  if (status === 0) writeFileSync(join(root, STAMP), fingerprint);
  return status;
}
