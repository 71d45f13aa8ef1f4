import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where `npm run build` puts the web UI: `<package root>/dist/ui` (`index.html` and `assets/`).
 * The package root is the nearest folder above this module with a `package.json`, so the answer
 * is the same whether pacer runs from `dist/src/...` (`npm start`) or from `src/...` (tsx, tests).
 */
export function uiDistDir(from: string = __dirname): string {
  return join(packageRoot(from), 'dist', 'ui');
}

/** The nearest folder above `from` holding `package.json` (the repository, from either tree). */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
