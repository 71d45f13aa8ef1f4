import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../harness/repo-path';

/**
 * The README's "How it is built" is the map of the repository: every directory of `src/`, of the
 * core (`src/scheduler/`), of the API (`src/api/`), of `sim/` and of `test/` is named there (as
 * `name/`, or a path under it such as `src/cluster/local/` or `v2/<resource>/`), so a directory added without a word in the map fails here.
 */

/** The README's `## How it is built` section, up to the next `## `. */
function mapSection(): string {
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const start = readme.indexOf('\n## How it is built');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
}

const dirsOf = (...segments: string[]): string[] =>
  readdirSync(repoPath(...segments), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

const MAPPED: ReadonlyArray<{ readonly under: string; readonly dirs: readonly string[]; readonly named: (dir: string) => string }> = [
  { under: 'src/', dirs: dirsOf('src'), named: (d) => `\`src/${d}/` },
  { under: 'src/scheduler/', dirs: dirsOf('src', 'scheduler'), named: (d) => `\`${d}/\`` },
  { under: 'src/api/', dirs: dirsOf('src', 'api'), named: (d) => `\`${d}/` },
  { under: 'sim/', dirs: dirsOf('sim'), named: (d) => `\`${d}/\`` },
  { under: 'test/', dirs: dirsOf('test'), named: (d) => `\`${d}/\`` },
];

t.test('every directory of src/, src/scheduler/, src/api/, sim/ and test/ is named in the README\'s map', async (t) => {
  const map = mapSection();
  t.ok(map.length > 1000, 'the section was found');
  for (const m of MAPPED) {
    t.ok(m.dirs.length > 3, `${m.under} has directories (${m.dirs.length})`);
    for (const dir of m.dirs) t.ok(map.includes(m.named(dir)), `${m.under}${dir}/ is named in README "How it is built"`);
  }
});
