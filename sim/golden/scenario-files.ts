import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every `.yaml` file below `dir`, as `/`-separated paths relative to `root`, sorted by code
 * units (the order of the golden hash file and of the scenario test).
 */
export function findScenarioFiles(root: string, dir = join(root, 'scenarios')): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findScenarioFiles(root, path));
    else if (entry.isFile() && entry.name.endsWith('.yaml')) found.push(relative(root, path).split('\\').join('/'));
  }
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
