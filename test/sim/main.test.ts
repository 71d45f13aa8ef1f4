import { spawnSync } from 'node:child_process';
import t from 'tap';
import { exitOf, logRecords, spawnMain } from '../e2e/main-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { PATIENCE_MS, waitFor } from '../harness/wait';

/** `npm start`'s entry point (run from source here): paces a workload, one log record per decision. */
t.test('main runs the workload on the simulated cluster in real time: readable decision lines with --log_format text, or JSON', async (t) => {
  const args = ['--cluster', 'sim', '--port', '0', '--workload', 'scenarios/partition.yaml', '--speed', '100000'];
  const [text, json] = [spawnMain(t, [...args, '--log_format', 'text']), spawnMain(t, [...args, '--log_format', 'json'])];
  const outputs: { stdout: string; stderr: string }[] = [];
  for (const main of [text, json]) {
    await waitFor(() => /PASSED/.test(main.stderr()), 'the workload verdict');
    main.child.kill('SIGINT');
    t.same(await exitOf(main, 'exit'), { code: 0, signal: null }, main.stderr());
    outputs.push({ stdout: main.stdout(), stderr: main.stderr() });
  }
  const lines = outputs[0].stderr;
  const line = (rest: string): RegExp => new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] (?:INFO|WARN): scheduler: ${rest}$`, 'm');
  t.match(lines, line('0\\.000s {2}launch web\\.instance-[0-9a-f]{8} of /web on agent-\\d'), 'a launch, readable');
  t.match(lines, line('4m15\\.000s {2}launch web\\.instance-[0-9a-f]{8} of /web on agent-\\d'), 'the replacement of the partitioned instance');
  t.match(lines, /kill web\.instance-[0-9a-f]{8} of \/web on agent-\d: scale-down \(more instances than the target\)/, 'the kill, with its reason');
  t.ok(lines.split('\n').every((l) => !l.startsWith('{')), 'no JSON in the text form');

  const records = logRecords(outputs[1].stderr).filter((r) => r.component === 'scheduler');
  t.ok(records.some((r) => r.decision === 'unreachable' && r.agentId === 'agent-1' && r.level === 40), 'one JSON object per decision (unreachable: a warning)');
  for (const r of records) {
    t.match(r, { time: Number, at: /^\d[\dhms.]*s$/, decision: String, msg: String });
    t.notOk('plan' in r || 'original' in r, 'never a whole plan');
  }
  for (const o of outputs) {
    t.match(o.stderr, /PASSED/);
    t.notMatch(o.stderr, /sha256/, 'no hash of a trace the run did not keep');
    t.notMatch(o.stderr, /^decisions:$/m, 'the summary does not repeat the decisions');
    t.equal(o.stdout, '', 'nothing on stdout: the log is on stderr');
  }
});

t.test('unknown clusters and bad flags are refused with the usage', async (t) => {
  for (const args of [['--cluster', 'mesos'], ['--cluster', 'sim', '--speed', '0'], ['--bogus', '1'], ['--port', 'x']]) {
    const r = spawnSync(process.execPath, [...nodeArgsFor('src/main.ts'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
    t.equal(r.status, 2, args.join(' '));
    t.match(r.stderr, /usage: npm start/);
  }
});
