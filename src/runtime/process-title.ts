import { relative } from 'node:path';

/**
 * The process title that stands in for pacer's command line once secret flags are hidden
 * (`hiddenArgv`): `argv0` as typed, the script as the command line likely named it (relative to
 * `cwd` when that is shorter than its absolute path), then the flags. Linux keeps a title no
 * longer than the command line it replaces and cuts the rest, so absolute paths (what
 * `process.argv` holds) cut `node dist/src/main.js … --http_credentials bob:pw` to
 * `/usr/bin/node /home/…/dist/src/main.js … --http_cre`.
 */
export function processTitle(argv0: string, scriptPath: string, flags: readonly string[], cwd: string): string {
  const rel = relative(cwd, scriptPath);
  const script = rel !== '' && rel.length < scriptPath.length ? rel : scriptPath;
  return [argv0, script, ...flags].join(' ');
}
