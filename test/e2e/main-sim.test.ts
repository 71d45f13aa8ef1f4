import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './e2e-kit';
import { exitOf, ping, runMain, spawnMain, startupPort } from './main-kit';
import { waitFor } from './e2e-kit';

/** `npm start -- --cluster sim` as a real process: src/runtime/start-sim.ts through src/main.ts. */

t.test('--cluster sim serves the API and paces a workload: decision lines on stdout, the verdict on stderr', async (t) => {
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
  await waitFor(() => /\nPASSED\n/.test(main.stderr()), 'the workload verdict');
  main.child.kill('SIGINT');
  const exit = await exitOf(main, 'exit after SIGINT');
  t.same(exit, { code: 0, signal: null }, 'exits 0 on SIGINT');
  const demo = { stdout: main.stdout(), stderr: main.stderr() };
  const lines = demo.stdout.trimEnd().split('\n');
  t.ok(lines.length > 10, `decisions were streamed (${lines.length})`);
  t.ok(lines.every((l) => /^ +\d[\dhms.]*s {2}\S/.test(l)), 'every stdout line is a decision at its virtual time');
  t.match(demo.stderr, /pacer: Marathon API on http:\/\/127\.0\.0\.1:\d+ \(simulated cluster paced in real time, state in memory\)/);
  t.match(demo.stderr, /scenario demo {2}seed 1/, 'the workload summary');
  t.match(demo.stderr, /^expectations:$/m, 'the summary lists the expectations');
  t.match(demo.stderr, /\nPASSED\n/, 'and the verdict');

  t.equal(invalid.code, 1, 'an invalid workload: cannot start, exit 1');
  t.match(invalid.stderr, `${bad}: /seed: required field "seed" is missing`, 'naming the file and the field');
  t.equal(invalid.stdout, '');

  // A missing workload is a one-line message and exit 2, like every other bad input.
  t.match(absent.stderr, missing, 'a missing workload names the file');
  t.equal(absent.code, 1, 'a missing workload: cannot start, exit 1, as a bad one');
  t.notMatch(absent.stderr, /\n\s+at /, 'without a stack trace');
});
