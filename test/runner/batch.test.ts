import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { nodeArgsFor, RUNS_COMPILED } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { PATIENCE_MS } from '../harness/wait';

/**
 * test/runner/batch.ts, which `npm test` runs most directories' files in (test/runner/run-suite.ts):
 * each file is one test named after it, so a failure names its file; a file's top-level
 * teardown runs when that file ends; a file that asserts at its top level is refused by name; a
 * file that hangs fails on its own time limit and the files after it still run.
 */

/** What one fixture is given to batch.ts as: its name and the path batch.ts requires. */
function fixture(name: string): string[] {
  const path = join(__dirname, 'fixtures', `batch-${name}${RUNS_COMPILED ? '.js' : '.ts'}`);
  return [`fixture/${name}`, path];
}

t.test('a batch reports each file as its own test, in order, and goes on after a failing or hanging file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-batch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The hanging file's limit: what it costs this test in wall time; the files that pass do nothing.
  const fileTimeoutS = 5;
  const child = spawn(process.execPath, [
    ...nodeArgsFor('test/runner/batch.ts'),
    ...['first', 'second', 'misuse', 'hang', 'last'].flatMap(fixture),
  ], {
    cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACER_BATCH_FIXTURE_DIR: dir, PACER_TEST_TIMEOUT_S: String(fileTimeoutS), TAP_TIMEOUT: String(PATIENCE_MS / 1000), PACER_TEST_COSTS: join(dir, 'costs.jsonl') },
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  child.stderr.resume();
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const lines = out.split('\n').filter((line) => /^(?:not )?ok \d+ - /.test(line)).map((line) => line.replace(/ # .*$/, ''));
  t.same(lines, [
    'ok 1 - fixture/first', 'not ok 2 - fixture/second', 'not ok 3 - fixture/misuse', 'not ok 4 - fixture/hang', 'ok 5 - fixture/last',
  ], 'one line per file, named after it');
  t.equal(code, 1, 'the process fails');
  t.match(out, /^ {8}ok 1 - first-file-teardown-ran$/m, "the first file's top-level teardown ran when it ended, before the second file");
  t.match(out, /^ {8}not ok 2 - the planted failure$/m, "the second file's failure is inside its own test");
  t.match(out, /fixture\/misuse calls t\.ok on the root test at its top level: it cannot be batched/, 'the misuse is named');
  t.match(out, /^ {8}not ok 1 - timeout!\n {10}---\n {10}expired: fixture\/hang$/m, "the hanging file ends on its own limit (its file's test expired, not the process's)");
  const costs = readFileSync(join(dir, 'costs.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { file: string; in: string; ms: number; cpuS: number });
  t.same(costs.map((c) => c.file), ['fixture/first', 'fixture/second', 'fixture/misuse', 'fixture/hang', 'fixture/last'], 'PACER_TEST_COSTS: one line per file, in order');
  t.ok(costs.every((c) => c.in === 'batch' && c.ms >= 0 && c.cpuS >= 0), 'each with its wall and CPU time');
});
