import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { cliMain } from '../../sim/runner/cli-main';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * Every `npm run sim` command the documentation shows (README.md and docs/*.md: lines of `sh`
 * blocks and inline code spans) runs in-process as written and exits 0, as the documents say
 * (each example is a passing run). Files a command writes (`--trace`, `--report`, `--dump`,
 * `hashes --update`) are kept in memory: the repository is not touched. Commands with a
 * placeholder (`--from N`, `swarm-N.yaml`) are only checked for their `--`. Swarms of many seeds
 * run two of them (the command is the same; 500 seeds would take minutes).
 */

const REPO = REPO_ROOT;
const DOCS = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const SWARM_SEEDS_MAX = 2;

interface Example {
  readonly doc: string;
  readonly line: number;
  readonly command: string;
}

/** The `npm run sim …` commands of one document, with their lines, comments cut off. */
function examples(doc: string): Example[] {
  const out: Example[] = [];
  let inShell = false;
  readFileSync(join(REPO, doc), 'utf8').split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) {
      inShell = !inShell && /^\s*```(sh|bash|shell)\s*$/.test(text);
      return;
    }
    if (inShell) {
      const m = /^\s*(npm run sim\b[^#]*)/.exec(text);
      if (m !== null) out.push({ doc, line: index + 1, command: m[1].trim() });
      return;
    }
    for (const m of text.matchAll(/`(npm run sim [^`]+)`/g)) out.push({ doc, line: index + 1, command: m[1].trim() });
  });
  return out;
}

const all = DOCS.flatMap(examples);

/** What one run of the sim CLI did. */
interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly written: ReadonlyMap<string, string>;
}

/**
 * Runs of the documented commands by their arguments: a command that several documents show (e.g.
 * `npm run sim -- hashes`, every scenario replayed, in README.md and docs/architecture.md) runs
 * once and each place checks that run (the CLI reads no state but its arguments and the
 * repository's files, so a second run would answer the same; about 15 s of CI's CPU less).
 */
const runs = new Map<string, Run>();

function runOnce(argv: readonly string[]): Run {
  const key = argv.join('\0');
  const known = runs.get(key);
  if (known !== undefined) return known;
  const written = new Map<string, string>();
  let out = '';
  let err = '';
  const code = cliMain([...argv], {
    readFile: (path) => readFileSync(resolve(REPO, path), 'utf8'),
    writeFile: (path, text) => void written.set(path, text),
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
  });
  const run = { code, out, err, written };
  runs.set(key, run);
  return run;
}

t.test('the documents show npm run sim commands', async (t) => {
  t.ok(all.length >= 10, `${all.length} commands`);
  t.ok(DOCS.includes('docs/scenario-format.md') && all.some((e) => e.doc === 'docs/scenario-format.md'), 'the scenario format shows how to run a file');
});

for (const example of all) {
  t.test(`${example.doc}:${example.line}: ${example.command}`, async (t) => {
    const words = example.command.split(/\s+/).slice(3);
    t.equal(words[0], '--', 'the arguments follow `--`, or npm keeps the options for itself');
    const argv = words.slice(1);
    if (argv.some((w) => /(^|[-/])N([.-]|$)/.test(w))) {
      t.comment('a placeholder: not run');
      return;
    }
    if (argv[0] === 'swarm') {
      const i = argv.indexOf('--seeds');
      if (i >= 0 && Number(argv[i + 1]) > SWARM_SEEDS_MAX) argv[i + 1] = String(SWARM_SEEDS_MAX);
    }
    const { code, out, err, written } = runOnce(argv);
    t.equal(code, 0, 'exits 0 as documented', { stderr: err, stdout: out.slice(-2000) });
    for (const flag of ['--trace', '--report', '--dump']) {
      const i = argv.indexOf(flag);
      if (i >= 0) t.ok((written.get(argv[i + 1]) ?? '').length > 0, `writes ${argv[i + 1]}`);
    }
    if (argv[0] === 'hashes' && argv.includes('--update')) t.ok(written.has(join(REPO, 'scenarios', 'hashes.json')), 'writes the golden hashes');
  });
}
