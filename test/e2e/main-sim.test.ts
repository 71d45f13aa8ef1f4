import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './e2e-kit';
import { exitOf, logRecords, ping, runMain, spawnMain, startupPort } from './main-kit';
import { patientSignal } from '../harness/wait';
import { waitFor } from './e2e-kit';

/** `npm start -- --cluster sim` as a real process: src/runtime/start-sim.ts through src/main.ts. */

t.test('--cluster sim serves the API and paces a workload: decision records at their virtual time, the verdict, in the log', async (t) => {
  const dir = tempDir(t);
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'name: half a scenario\n');
  const missing = join(dir, 'missing.yaml');
  // demo.yaml lasts 10 virtual minutes: at 100000x that is a few wall milliseconds.
  const main = spawnMain(t, ['--cluster', 'sim', '--port', '0', '--speed', '100000']);
  const [invalid, absent] = await Promise.all([
    runMain(t, ['--cluster', 'sim', '--port', '0', '--workload', bad]),
    runMain(t, ['--cluster=sim', '--port=0', `--workload=${missing}`]),
  ]);
  const port = await startupPort(main);
  t.equal(await ping(port), 'pong', 'the API answers');
  await waitFor(() => /: PASSED"/.test(main.stderr()), 'the workload verdict');
  main.child.kill('SIGINT');
  const exit = await exitOf(main, 'exit after SIGINT');
  t.same(exit, { code: 0, signal: null }, 'exits 0 on SIGINT');
  t.equal(main.stdout(), '', 'nothing on stdout');
  const records = logRecords(main.stderr());
  const decisions = records.filter((r) => r.component === 'scheduler');
  t.ok(decisions.length > 10, `decisions were logged (${decisions.length})`);
  t.ok(decisions.every((r) => /^\d[\dhms.]*s$/.test(String(r.at)) && typeof r.decision === 'string'), 'each at its virtual time, with its fields');
  t.match(records.find((r) => r.component === 'pacer' && /^Marathon API/.test(String(r.msg))), { msg: /^Marathon API on http:\/\/127\.0\.0\.1:\d+ \(simulated cluster paced in real time, state in memory\)/ });
  t.same(records.filter((r) => /does not use/.test(String(r.msg))), [], 'no flag it was given goes unused: no warning');
  const verdict = records.find((r) => r.component === 'sim');
  t.match(verdict, { msg: 'workload demo seed 1: PASSED', passed: true }, 'the verdict');
  t.match(verdict?.summary, /scenario demo {2}seed 1/, 'with the workload summary');
  t.match(verdict?.summary, /^expectations:$/m, 'which lists the expectations');

  t.equal(invalid.code, 1, 'an invalid workload: cannot start, exit 1');
  t.match(invalid.stderr, `${bad}: /seed: required field "seed" is missing`, 'naming the file and the field');
  t.equal(invalid.stdout, '');

  // A missing workload is a one-line message and exit 2, like every other bad input.
  t.match(absent.stderr, missing, 'a missing workload names the file');
  t.equal(absent.code, 1, 'a missing workload: cannot start, exit 1, as a bad one');
  t.notMatch(absent.stderr, /\n\s+at /, 'without a stack trace');
});

t.test('Ctrl-C before the workload\'s duration: reported stopped at the virtual time reached, with no verdict', async (t) => {
  // At speed 1 demo.yaml's 10 virtual minutes take 10 wall minutes: SIGINT comes long before.
  const main = spawnMain(t, ['--cluster', 'sim', '--port', '0', '--speed', '1']);
  await startupPort(main);
  // The deployments of the workload finish a few virtual seconds in: the clock has moved.
  await waitFor(() => logRecords(main.stderr()).some((r) => r.component === 'scheduler' && r.at !== '0.000s'), 'a decision after 0s');
  main.child.kill('SIGINT');
  t.same(await exitOf(main, 'exit after SIGINT'), { code: 0, signal: null }, 'exits 0 on SIGINT');
  const verdict = logRecords(main.stderr()).find((r) => r.component === 'sim');
  const msg = /^workload demo seed 1: stopped at (\d[\dhms.]*s) of 10m0\.000s, before its expectations; no verdict$/.exec(String(verdict?.msg));
  t.ok(msg, `stopped, no verdict: ${String(verdict?.msg)}`);
  t.equal(verdict?.stoppedAt, msg?.[1], 'where it stopped, as a field too');
  t.not(msg?.[1], '0.000s', 'the virtual time reached, not the start');
  t.notOk(verdict !== undefined && 'passed' in verdict, 'no passed field');
  t.match(verdict?.summary, `virtual ${msg?.[1]} of 10m0.000s (stopped)`, 'the summary at the virtual time reached');
  t.notMatch(main.stderr(), /PASSED|FAILED/, 'no verdict anywhere');
});

t.test('a LIKE constraint whose pattern backtracks exponentially does not hold the API: its offers are refused at once', async (t) => {
  // Without the fallback to V8's linear-time engine (src/runtime/regexp-backtracking.ts) this
  // pattern takes minutes on one hostname of the simulated agents (9 s with two `.*` fewer), on
  // the thread that answers the API: found by an API trial on 2026-12-03.
  const main = spawnMain(t, ['--cluster', 'sim', '--port', '0', '--speed', '1000']);
  const port = await startupPort(main);
  const evil = { id: '/evil', cmd: 'sleep 1', instances: 2, cpus: 0.01, mem: 8, constraints: [['hostname', 'LIKE', '(.*.*.*.*.*.*.*.*.*.*)*z']] };
  const created = await fetch(`http://127.0.0.1:${port}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(evil), signal: patientSignal(),
  });
  t.equal(created.status, 201, 'accepted: it compiles and needs no backreference or lookaround');
  const refused = await waitFor(async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v2/queue`, { signal: patientSignal() });
    const body = await res.json() as { queue: { app?: { id: string }; processedOffersSummary: { unusedOffersCount: number } }[] };
    const entry = body.queue.find((q) => q.app?.id === '/evil');
    return entry !== undefined && entry.processedOffersSummary.unusedOffersCount > 0 && entry.processedOffersSummary.unusedOffersCount;
  }, 'offers matched against the pattern and refused');
  t.ok(refused > 0, `${refused} offers refused (no hostname ends in z)`);
  t.equal(await ping(port), 'pong', 'the API answers');
  main.child.kill('SIGINT');
  t.same(await exitOf(main, 'exit after SIGINT'), { code: 0, signal: null });
});
