import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { runSimCli } from '../harness/run-sim-cli';
import { PATIENCE_MS } from '../harness/wait';

const sim = runSimCli;

const dir = mkdtempSync(join(tmpdir(), 'pacer-cli-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const base = `name: tiny
seed: 1
duration: 1m
cluster:
  agents:
    - count: 2
      resources: { cpus: 2, mem: 2048 }
timeline:
  - at: 0s
    app: { id: /a, cmd: "sleep 100", instances: 2, cpus: 0.5, mem: 64 }
`;

t.test('a passing scenario exits 0 with a summary, the trace hash and PASSED; --trace writes JSONL', async (t) => {
  const traceFile = join(dir, 'trace.jsonl');
  const r = sim([file('ok.yaml', `${base}  - at: 30s\n    expect: { instances: { /a: { Running: 2 } } }\n`), '--trace', traceFile]);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /PASS \/a Running = 2/);
  t.match(r.out, /trace: \d+ lines, sha256 [0-9a-f]{64}\nPASSED/);
  const lines = readFileSync(traceFile, 'utf8').trim().split('\n');
  t.ok(lines.length > 10);
  for (const line of lines) JSON.parse(line);
});

t.test('a failing expectation exits 1 and prints the command that reproduces it', async (t) => {
  const f = file('fail.yaml', `${base}  - at: 30s\n    expect: { instances: { /a: { Running: 3 } } }\n`);
  const r = sim([f, '--seed', '9']);
  t.equal(r.code, 1);
  t.match(r.out, /FAIL \/a Running: expected 3, got 2/);
  t.match(r.out, new RegExp(`FAILED  \\(reproduce: npm run sim -- ${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --seed 9\\)`));
});

t.test('bad input fails with the file, the field path and what was expected; nothing runs', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['bad-duration.yaml', base.replace('duration: 1m', 'duration: soon'), /bad-duration\.yaml: \/duration: expected a duration/],
    ['unknown-key.yaml', base.replace('seed: 1', 'seed: 1\nsede: 2'), /unknown-key\.yaml: \/sede: unknown field "sede"; did you mean "seed"\?/],
    ['bad-app.yaml', base.replace('cpus: 0.5, mem: 64', 'cpus: -1, mem: 64'), /bad-app\.yaml: \/timeline\/0\/app\/cpus: /],
    ['bad-yaml.yaml', 'name: [unclosed', /bad-yaml\.yaml: line 1/],
  ];
  for (const [name, text, expected] of cases) {
    const r = sim([file(name, text)]);
    t.equal(r.code, 2, name);
    t.match(r.err, expected, name);
    t.notMatch(r.out, /PASSED|FAILED/, `${name}: nothing ran`);
  }
});

t.test('usage errors exit 2 with the usage text', async (t) => {
  for (const args of [[], ['--seed', 'x', 'f.yaml'], ['--bogus'], [join(dir, 'missing.yaml')]]) {
    const r = sim(args);
    t.equal(r.code, 2, args.join(' '));
    t.match(r.err, /usage: npm run sim|cannot read/);
  }
});

t.test('the real command (sim/cli.ts) wires the process: exit code and output', async (t) => {
  const r = spawnSync(process.execPath, [...nodeArgsFor('sim/cli.ts'), 'scenarios/partition.yaml', '--quiet'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^PASSED scenarios\/partition\.yaml seed 7 sha256 [0-9a-f]{64}\n$/);
});
