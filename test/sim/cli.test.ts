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

t.test('the summary lists the decisions: the unreachable instance, its replacement, the kill of the surplus and why', async (t) => {
  const r = sim(['scenarios/partition.yaml']);
  t.equal(r.code, 0, r.err);
  const decisions = /\ndecisions:\n([\s\S]*?)\n\n/.exec(r.out)?.[1] ?? '';
  t.match(decisions, /^ +0\.000s {2}launch \/web ×3: web\.instance-\w{8} on agent-1, web\.instance-\w{8} on agent-2, web\.instance-\w{8} on agent-3$/m);
  t.match(decisions, /^ +2m15\.000s {2}web\.instance-(\w{8}) of \/web on agent-1 unreachable$/m);
  t.match(decisions, /^ +4m15\.000s {2}web\.instance-\w{8} of \/web on agent-1 unreachable inactive: replaced\n +4m15\.000s {2}launch web\.instance-\w{8} of \/web on agent-4$/m);
  t.match(decisions, /^ +6m0\.000s {2}kill web\.instance-\w{8} of \/web on agent-4: scale-down \(more instances than the target\)$/m);
  t.notMatch(r.out, /unplaced at the end/, 'nothing left unplaced');
});

t.test('every instance left unplaced at the end is listed with the offer rejections the core recorded', async (t) => {
  const f = file('unplaced.yaml', `${base}  - at: 0s\n    app: { id: /big, cmd: "sleep 100", instances: 3, cpus: 3, mem: 64 }\n  - at: 1s\n    app: { id: /zoned, cmd: "sleep 100", instances: 1, cpus: 0.1, mem: 64, constraints: [[rack, CLUSTER, r9]] }\n`);
  const r = sim([f]);
  t.equal(r.code, 0, r.err);
  const unplaced = /\nunplaced at the end:\n([\s\S]*?)\n\n/.exec(r.out)?.[1] ?? '';
  t.match(unplaced, /^ {2}\/big +3 unplaced; offers rejected: InsufficientCpus \d+ \(last: agent-\d InsufficientCpus/m, 'no agent has 3 cpus');
  t.match(unplaced, /^ {2}\/zoned +1 unplaced; offers rejected: UnfulfilledConstraint \d+/m, 'no agent has rack r9');
  t.match(r.out, /^ +0\.000s {2}offers rejected for \/big \(3 waiting\): InsufficientCpus \d+$/m, 'the rejections are decisions too');
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
