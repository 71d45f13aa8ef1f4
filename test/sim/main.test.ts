import { spawnSync } from 'node:child_process';
import t from 'tap';
import { exitOf, spawnMain } from '../e2e/main-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { PATIENCE_MS, waitFor } from '../harness/wait';

/** `npm start`'s entry point (run from source here): paces a workload, one line per decision on stdout. */
t.test('main runs the workload on the simulated cluster in real time: readable decision lines, or JSON with --log_format json', async (t) => {
  const args = ['--cluster', 'sim', '--port', '0', '--workload', 'scenarios/partition.yaml', '--speed', '100000'];
  const [text, json] = [spawnMain(t, args), spawnMain(t, [...args, '--log_format', 'json'])];
  const outputs: { stdout: string; stderr: string }[] = [];
  for (const main of [text, json]) {
    await waitFor(() => /PASSED/.test(main.stderr()), 'the workload verdict');
    main.child.kill('SIGINT');
    t.same(await exitOf(main, 'exit'), { code: 0, signal: null }, main.stderr());
    outputs.push({ stdout: main.stdout(), stderr: main.stderr() });
  }
  const lines = outputs[0].stdout.trimEnd().split('\n');
  t.match(lines.join('\n'), /^ +0\.000s {2}launch web\.instance-[0-9a-f]{8} of \/web on agent-\d$/m, 'a launch, readable');
  t.match(lines.join('\n'), /^ +4m15\.000s {2}launch web\.instance-[0-9a-f]{8} of \/web on agent-\d$/m, 'the replacement of the partitioned instance');
  t.match(lines.join('\n'), /kill web\.instance-[0-9a-f]{8} of \/web on agent-\d: scale-down \(more instances than the target\)/, 'the kill, with its reason');
  t.ok(lines.every((l) => !l.startsWith('{')), 'no JSON on a text terminal');

  const records = outputs[1].stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  t.ok(records.some((r) => r.decision === 'unreachable' && r.agentId === 'agent-1'), 'one JSON object per decision');
  for (const r of records) {
    t.match(r, { time: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, decision: String, msg: String });
    t.notOk('plan' in r || 'original' in r, 'never a whole plan');
  }
  for (const o of outputs) {
    t.match(o.stderr, /PASSED/);
    t.notMatch(o.stderr, /sha256/, 'no hash of a trace the run did not keep');
    t.notMatch(o.stderr, /^decisions:$/m, 'the summary does not repeat the decisions');
  }
});

t.test('unknown clusters and bad flags are refused with the usage', async (t) => {
  for (const args of [['--cluster', 'mesos'], ['--cluster', 'sim', '--speed', '0'], ['--bogus', '1'], ['--port', 'x']]) {
    const r = spawnSync(process.execPath, [...nodeArgsFor('src/main.ts'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
    t.equal(r.status, 2, args.join(' '));
    t.match(r.stderr, /usage: npm start/);
  }
});
