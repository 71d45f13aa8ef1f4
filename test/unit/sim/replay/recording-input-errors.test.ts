import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliMain } from '../../../../sim/runner/cli-main';
import { readBoundedText } from '../../../../sim/runner/read-bounded-text';
import { REPO_ROOT } from '../../../harness/repo-path';

/**
 * Hostile recordings and input files for `npm run sim -- replay` and `npm run sim`: each must end
 * in one `sim replay:` / `sim:` line naming the file and exit 2, never a stack trace (a null
 * `options` or `input` threw a TypeError out of the CLI before).
 */
const dir = mkdtempSync(join(tmpdir(), 'pacer-replay-input-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const lines = readFileSync(join(REPO_ROOT, 'docs/recordings/local-web/recording.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
const edit = (k: string, f: (r: Record<string, unknown>) => Record<string, unknown>): string =>
  `${lines.map((l) => { const r = JSON.parse(l) as Record<string, unknown>; return r.k === k ? JSON.stringify(f(r)) : l; }).join('\n')}\n`;

function run(argv: string[]): { code: number; err: string } {
  let err = '';
  const code = cliMain(argv, {
    readFile: readBoundedText, writeFile: () => undefined, stdout: () => undefined, stderr: (text) => { err += text; },
  });
  return { code, err };
}

const cases: readonly { name: string; text: string; error: RegExp }[] = [
  { name: 'start options null', text: edit('start', (r) => ({ ...r, options: null })), error: /:1: expected the start record's "options" to be an object/ },
  { name: 'start options of a wrong type', text: edit('start', (r) => ({ ...r, options: { launchesPerInput: 'x' } })), error: /:1: expected the start record's option "launchesPerInput" to be a number, got "x"/ },
  { name: 'start epochMs not a number', text: edit('start', (r) => ({ ...r, epochMs: 'x' })), error: /:1: expected the start record's "epochMs" to be a number/ },
  { name: 'an input null', text: edit('in', (r) => ({ ...r, input: null })), error: /:5: expected an "in" record with an "input" object that has a string "type"/ },
  { name: 'draws not numbers', text: edit('draws', (r) => ({ ...r, v: 'x' })), error: /:\d+: expected a "draws" record with a list of numbers "v"/ },
  { name: 'a snapshot that is not an object', text: edit('snapshot', (r) => ({ ...r, state: null })), error: /:2: expected the snapshot record's "state" to be an object/ },
  { name: 'a time that is not a finite number >= 0', text: edit('in', (r) => ({ ...r, t: -1 })), error: /:5: expected a record with a number "t" \(ms, 0 or more\)/ },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const file = join(dir, `${c.name.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(file, c.text);
    const r = run(['replay', file]);
    t.equal(r.code, 2, r.err);
    t.match(r.err, c.error);
    t.equal(r.err.trim().split('\n').length, 1, 'one line');
  });
}

t.test('a directory or an oversized file is refused before it is read', async (t) => {
  const sub = join(dir, 'a-dir.yaml');
  mkdirSync(sub);
  t.throws(() => readBoundedText(sub, 1024), /is not a regular file/);
  const big = join(dir, 'big.yaml');
  writeFileSync(big, 'x'.repeat(2000));
  t.throws(() => readBoundedText(big, 1024), /2000 bytes, more than the 1024 this file may have/);
  t.equal(readBoundedText(big, 2000).length, 2000);
  const r = run([big.replace('big.yaml', 'a-dir.yaml')]);
  t.equal(r.code, 2);
  t.match(r.err, /^sim: cannot read .*a-dir\.yaml: .*is not a regular file\n$/);
});

t.test('an argument that is no recording: one line saying what a recording is, exit 2 (it was the host\'s ENOTDIR/ENOENT)', async (t) => {
  const expected = 'expected a flight recording\'s directory \\(written by npm start -- --record DIR or POST /pacer/v1/recording\\) or its \\.jsonl file';
  const empty = join(dir, 'empty-dir');
  mkdirSync(empty);
  const notes = join(dir, 'notes.txt');
  writeFileSync(notes, 'hello\n');
  const rows: readonly { name: string; arg: string; error: RegExp }[] = [
    { name: 'a scenario', arg: join(REPO_ROOT, 'scenarios/demo.yaml'), error: new RegExp(`scenarios/demo\\.yaml is a file but not a \\.jsonl recording: ${expected}; a scenario runs with npm run sim -- .*scenarios/demo\\.yaml\\n$`) },
    { name: 'another file', arg: notes, error: new RegExp(`notes\\.txt is a file but not a \\.jsonl recording: ${expected}\\n$`) },
    { name: 'a directory without a recording', arg: empty, error: new RegExp(`empty-dir holds no recording\\.jsonl: ${expected}\\n$`) },
    { name: 'nothing there', arg: join(dir, 'missing'), error: new RegExp(`missing does not exist: ${expected}\\n$`) },
  ];
  for (const row of rows) {
    const r = run(['replay', row.arg]);
    t.equal(r.code, 2, `${row.name}: exit 2`);
    t.match(r.err, new RegExp(`^sim replay: .*${row.error.source}`), row.name);
    t.notMatch(r.err, /ENOTDIR|ENOENT/, `${row.name}: not the host's error code`);
  }
});
