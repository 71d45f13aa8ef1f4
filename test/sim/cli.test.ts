import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { runSimCli } from '../harness/run-sim-cli';
import { cliMain } from '../../sim/runner/cli-main';
import { PATIENCE_MS } from '../harness/wait';

const sim = runSimCli;

const dir = mkdtempSync(join(tmpdir(), 'pacer-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
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

t.test('--seed beyond 2^53 - 1 is refused: it would be rounded, and two seeds would run the same', async (t) => {
  for (const seed of ['9007199254740992', '99999999999999999999']) {
    const r = sim([join(dir, 'missing.yaml'), '--seed', seed]);
    t.equal(r.code, 2, seed);
    t.match(r.err, /--seed: expected an integer from 0 to 9007199254740991/);
  }
});

t.test('swarm: --seeds and --from out of range are refused with their bound, before any seed runs', async (t) => {
  const cases: readonly [string[], RegExp][] = [
    [['--seeds', '99999999999999999999'], /^sim swarm: --seeds: expected a whole number from 1 to 1000000, got "99999999999999999999"$/m],
    [['--seeds', '1000001'], /^sim swarm: --seeds: expected a whole number from 1 to 1000000, got "1000001"$/m],
    [['--seeds', '0'], /^sim swarm: --seeds: expected a whole number from 1 to 1000000, got "0"$/m],
    [['--seeds', '1', '--from', '9007199254740992'], /^sim swarm: --from: expected a whole number from 0 to 9007199254740991, got "9007199254740992"$/m],
    // Seeds past 2^53 - 1 are rounded: 9007199254740993 would run as 9007199254740992, a seed twice.
    [['--seeds', '4', '--from', '9007199254740990'], /^sim swarm: --from 9007199254740990 --seeds 4: the last seed would be beyond 9007199254740991 \(at most 2 seeds from 9007199254740990\)$/m],
  ];
  for (const [args, expected] of cases) {
    const r = sim(['swarm', ...args]);
    t.equal(r.code, 2, args.join(' '));
    t.match(r.err, expected, args.join(' '));
    t.equal(r.out, '', `${args.join(' ')}: no seed ran`);
  }
});

t.test('a mistake on the command line: one line saying what is wrong, one pointing to --help, exit 2, nothing run', async (t) => {
  const yaml = join(dir, 'missing.yaml');
  const cases: readonly { args: string[]; first: string; help: string }[] = [
    { args: [], first: 'sim: missing the scenario file', help: 'sim: see npm run sim -- --help' },
    { args: ['--bogus'], first: 'sim: unknown option --bogus', help: 'sim: see npm run sim -- --help' },
    { args: ['--seed', 'x', 'f.yaml'], first: 'sim: --seed: expected an integer from 0 to 9007199254740991, got "x"', help: 'sim: see npm run sim -- --help' },
    // Every option that takes a value: missing at the end, or followed by another option.
    { args: [yaml, '--trace', '--quiet'], first: 'sim: --trace needs a file', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--trace'], first: 'sim: --trace needs a file', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--report', '--quiet'], first: 'sim: --report needs a file', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--report'], first: 'sim: --report needs a file', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--seed', '--quiet'], first: 'sim: --seed needs a number', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--seed'], first: 'sim: --seed needs a number', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--max-steps', '--trace', 't.jsonl'], first: 'sim: --max-steps needs a number', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--max-steps'], first: 'sim: --max-steps needs a number', help: 'sim: see npm run sim -- --help' },
    { args: ['swarm', '--seeds', '--from', '3'], first: 'sim swarm: --seeds needs a number', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['swarm', '--seeds', '1', '--from'], first: 'sim swarm: --from needs a number', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['swarm', '--seeds', '1', '--dump', '--from', '2'], first: 'sim swarm: --dump needs a file', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['swarm', '--seeds', '1', '--dump'], first: 'sim swarm: --dump needs a file', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['swarm'], first: 'sim swarm: missing --seeds N', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['replay', 'rec', '--until', '--trace', 't.jsonl'], first: 'sim replay: --until needs a time', help: 'sim replay: see npm run sim -- replay --help' },
    { args: ['replay', 'rec', '--until'], first: 'sim replay: --until needs a time', help: 'sim replay: see npm run sim -- replay --help' },
    { args: ['replay', 'rec', '--trace', '--report', 'r.html'], first: 'sim replay: --trace needs a file', help: 'sim replay: see npm run sim -- replay --help' },
    { args: ['replay', 'rec', '--report'], first: 'sim replay: --report needs a file', help: 'sim replay: see npm run sim -- replay --help' },
    { args: ['replay'], first: 'sim replay: missing the recording directory', help: 'sim replay: see npm run sim -- replay --help' },
    { args: ['hashes', '--updat'], first: 'sim hashes: unexpected "--updat"', help: 'sim hashes: see npm run sim -- hashes --help' },
    // `-` is no file (it wrote one named "-" in the working directory, where stdout was meant).
    { args: [yaml, '--trace', '-'], first: 'sim: --trace needs a file, not "-" (stdout holds the summary; a file named "-" can be written ./-)', help: 'sim: see npm run sim -- --help' },
    { args: [yaml, '--report=-'], first: 'sim: --report needs a file, not "-" (stdout holds the summary; a file named "-" can be written ./-)', help: 'sim: see npm run sim -- --help' },
    { args: ['swarm', '--seeds', '1', '--dump', '-'], first: 'sim swarm: --dump needs a file, not "-" (stdout holds the summary; a file named "-" can be written ./-)', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['replay', 'rec', '--report', '-'], first: 'sim replay: --report needs a file, not "-" (stdout holds the summary; a file named "-" can be written ./-)', help: 'sim replay: see npm run sim -- replay --help' },
    // An option given twice (the last one was taken without a word), in either spelling.
    { args: [yaml, '--seed', '1', '--seed=2'], first: 'sim: --seed given twice: give it once', help: 'sim: see npm run sim -- --help' },
    { args: ['swarm', '--seeds', '1', '--seeds', '2'], first: 'sim swarm: --seeds given twice: give it once', help: 'sim swarm: see npm run sim -- swarm --help' },
    { args: ['replay', 'rec', '--until', '5s', '--until', '9s'], first: 'sim replay: --until given twice: give it once', help: 'sim replay: see npm run sim -- replay --help' },
  ];
  for (const c of cases) {
    const r = sim(c.args);
    t.equal(r.code, 2, c.args.join(' '));
    t.equal(r.err, `${c.first}\n${c.help}\n`, `${c.args.join(' ')}: two lines`);
    t.equal(r.out, '', `${c.args.join(' ')}: nothing on stdout`);
  }
  const missing = sim([yaml]);
  t.equal(missing.code, 2);
  t.match(missing.err, /^sim: cannot read .*missing\.yaml: .*\n$/, 'a file that cannot be read: one line');
});

t.test('--name=value is taken as --name value for every option that takes a value (it was "unknown option --seed=5")', async (t) => {
  const yaml = file('equals.yaml', base);
  const trace = join(dir, 'equals.jsonl');
  const rows: readonly { args: string[]; same: string[] }[] = [
    { args: [yaml, '--seed=5', '--quiet'], same: [yaml, '--seed', '5', '--quiet'] },
    { args: [yaml, '--max-steps=10', '--quiet'], same: [yaml, '--max-steps', '10', '--quiet'] },
    { args: [yaml, `--trace=${trace}`, '--quiet'], same: [yaml, '--trace', trace, '--quiet'] },
    { args: [yaml, '--seed=x'], same: [yaml, '--seed', 'x'] },
    { args: [yaml, '--trace='], same: [yaml, '--trace'] },
    { args: ['swarm', '--seeds=1', '--from=3'], same: ['swarm', '--seeds', '1', '--from', '3'] },
    { args: ['replay', 'docs/recordings/local-web', '--until=2s'], same: ['replay', 'docs/recordings/local-web', '--until', '2s'] },
  ];
  const wall = (text: string): string => text.replace(/[\d.]+ s wall/, 'W s wall');
  for (const row of rows) {
    const r = sim(row.args);
    const expected = sim(row.same);
    t.equal(r.code, expected.code, row.args.join(' '));
    t.equal(wall(r.out), wall(expected.out), `${row.args.join(' ')}: stdout`);
    t.equal(r.err, expected.err, `${row.args.join(' ')}: stderr`);
  }
  // An option without a value is still unknown with one.
  t.equal(sim([yaml, '--quiet=1']).err, 'sim: unknown option --quiet=1\nsim: see npm run sim -- --help\n');
});

t.test('--help lists every command with the options its own usage shows, and README.md shows each option of each', async (t) => {
  const top = sim(['--help']);
  t.equal(top.code, 0);
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const commands = [
    { args: [], synopsis: /^usage: (npm run sim -- <scenario\.yaml> .*)$/m, readme: /^npm run sim -- (?!swarm|hashes|replay)\S+\.yaml(.*)$/gm },
    { args: ['swarm'], synopsis: /^usage: (npm run sim -- swarm .*)$/m, readme: /npm run sim -- swarm (.*)$/gm },
    { args: ['hashes'], synopsis: /^usage: (npm run sim -- hashes .*)$/m, readme: /npm run sim -- hashes(.*)$/gm },
    { args: ['replay'], synopsis: /^usage: (npm run sim -- replay .*)$/m, readme: /npm run sim -- replay (.*)$/gm },
  ];
  for (const c of commands) {
    const own = sim([...c.args, '--help']);
    t.equal(own.code, 0, `${c.args.join(' ')} --help exits 0`);
    t.equal(own.err, '', `${c.args.join(' ')} --help: nothing on stderr`);
    const synopsis = c.synopsis.exec(own.out)?.[1] ?? '';
    t.ok(synopsis !== '', `${c.args.join(' ')} --help: its usage line`);
    t.ok(top.out.includes(synopsis), `the top-level help shows ${synopsis}`);
    const shown = [...readme.matchAll(c.readme)].map((m) => m[1]).join(' ');
    for (const [option] of synopsis.matchAll(/--[a-z]+/g)) t.ok(shown.includes(option), `README.md shows ${synopsis.split(' ')[3]} ${option}`);
  }
  t.notMatch(sim(['hashes', '--help']).out, /unexpected/, 'hashes --help is not an error');
});

t.test('an output file that cannot be written: one line, exit 2, before anything runs (the scenario and replay, --trace and --report; the swarm, --dump)', async (t) => {
  const missingDir = join(dir, 'no-such-dir');
  const cases: { args: string[]; path: string; who: string; reason: RegExp }[] = [
    { args: ['scenarios/partition.yaml', '--trace'], path: join(missingDir, 't.jsonl'), who: 'sim', reason: /no such directory .*no-such-dir$/ },
    { args: ['scenarios/partition.yaml', '--report'], path: join(missingDir, 'r.html'), who: 'sim', reason: /no such directory .*no-such-dir$/ },
    { args: ['scenarios/partition.yaml', '--report'], path: dir, who: 'sim', reason: /it is a directory$/ },
    { args: ['scenarios/partition.yaml', '--trace'], path: join(file('plain.txt', 'x'), 't.jsonl'), who: 'sim', reason: /plain\.txt is not a directory$/ },
    { args: ['replay', 'docs/recordings/local-web', '--report'], path: join(missingDir, 'r.html'), who: 'sim replay', reason: /no such directory .*no-such-dir$/ },
    { args: ['replay', 'docs/recordings/local-web', '--trace'], path: join(missingDir, 't.jsonl'), who: 'sim replay', reason: /no such directory .*no-such-dir$/ },
    { args: ['swarm', '--seeds', '1', '--dump'], path: join(missingDir, 'x.yaml'), who: 'sim swarm', reason: /no such directory .*no-such-dir$/ },
    // An output that is an input or the other output (it overwrote the scenario before 2026-12-03).
    { args: ['scenarios/partition.yaml', '--trace'], path: 'scenarios/partition.yaml', who: 'sim', reason: /it is the scenario file; it would be overwritten$/ },
    { args: ['scenarios/partition.yaml', '--report', './scenarios/../scenarios/partition.yaml', '--trace'], path: 'scenarios/partition.yaml', who: 'sim', reason: /it is the scenario file; it would be overwritten$/ },
    { args: ['scenarios/partition.yaml', '--trace', join(dir, 'same.out'), '--report'], path: join(dir, 'same.out'), who: 'sim', reason: /it is another output file of this run; it would be overwritten$/ },
    { args: ['replay', 'docs/recordings/local-web', '--trace'], path: 'docs/recordings/local-web/recording.jsonl', who: 'sim replay', reason: /it is the recording; it would be overwritten$/ },
  ];
  for (const c of cases) {
    const r = sim([...c.args, c.path]);
    const what = `${c.args.join(' ')} ${c.path}`;
    t.equal(r.code, 2, what);
    t.equal(r.err.split('\n').length, 2, `${what}: one line`);
    t.ok(r.err.startsWith(`${c.who}: cannot write ${c.path}: `), what);
    t.match(r.err.trim(), c.reason, what);
    t.equal(r.out, '', `${what}: nothing ran`);
  }
});

t.test('a write that fails after the run (no check up front): the summary, one line naming the file, exit 2', async (t) => {
  const cases = [
    { args: ['scenarios/partition.yaml', '--quiet', '--report', 'r.html'], who: 'sim', out: /^PASSED scenarios\/partition\.yaml/ },
    { args: ['replay', 'docs/recordings/local-web', '--trace', 't.jsonl'], who: 'sim replay', out: /REPRODUCED/ },
  ];
  for (const c of cases) {
    let out = '';
    let err = '';
    const code = cliMain(c.args, {
      readFile: (p) => readFileSync(p, 'utf8'),
      writeFile: (p) => { throw Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES' }); },
      stdout: (text) => void (out += text),
      stderr: (text) => void (err += text),
    });
    t.equal(code, 2, c.args.join(' '));
    t.equal(err, `${c.who}: cannot write ${c.args.at(-1) ?? ''}: EACCES: permission denied, open '${c.args.at(-1) ?? ''}'\n`);
    t.match(out, c.out, 'the run\'s outcome is still printed');
  }
});

t.test('the real command (sim/cli.ts) wires the process: exit code and output', async (t) => {
  const r = spawnSync(process.execPath, [...nodeArgsFor('sim/cli.ts'), 'scenarios/partition.yaml', '--quiet'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^PASSED scenarios\/partition\.yaml seed 7 sha256 [0-9a-f]{64}\n$/);
  const bad = join(dir, 'no-such-dir', 't.jsonl');
  const refused = spawnSync(process.execPath, [...nodeArgsFor('sim/cli.ts'), 'scenarios/partition.yaml', '--trace', bad], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
  t.equal(refused.status, 2, 'an output path in a missing directory: exit 2');
  t.equal(refused.stderr, `sim: cannot write ${bad}: no such directory ${join(dir, 'no-such-dir')}\n`, 'one line, no stack trace');
  t.equal(refused.stdout, '', 'checked before the run');
});

t.test('a replay\'s HTML report says what its command line says: REPRODUCED (it said PASSED)', async (t) => {
  const report = join(dir, 'replay-report.html');
  const r = sim(['replay', 'docs/recordings/local-web', '--report', report]);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /REPRODUCED: all \d+ recorded records/);
  const html = readFileSync(report, 'utf8');
  t.match(html, /<span class="verdict reproduced">REPRODUCED<\/span>/, 'the heading\'s verdict');
  t.notMatch(html, />PASSED</, 'not the scenario run\'s word');
});
