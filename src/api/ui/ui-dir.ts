import { join } from 'node:path';
import { packageRoot } from '../../runtime/package-root';

/**
 * Where `npm run build` puts the web UI: `<package root>/dist/ui` (`index.html` and `assets/`).
 * The package root is the nearest folder above this module with a `package.json`, so the answer
 * is the same whether pacer runs from `dist/src/...` (`npm start`) or from `src/...` (tsx, tests).
 */
export function uiDistDir(from: string = __dirname): string {
  return join(packageRoot(from), 'dist', 'ui');
}
