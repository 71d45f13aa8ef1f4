import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './e2e-kit';
import { runMain } from './main-kit';

/** `npm start -- --cluster sim` as a real process: src/runtime/run-sim.ts through src/main.ts. */

t.test('--cluster sim paces a workload: events as JSON lines on stdout, the verdict on stderr', async (t) => {
  const dir = tempDir(t);
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'name: half a scenario\n');
  const missing = join(dir, 'missing.yaml');
  const [demo, invalid, absent] = await Promise.all([
    // demo.yaml lasts 10 virtual minutes: at 100000x that is a few wall milliseconds.
    runMain(t, ['--cluster', 'sim', '--speed', '100000']),
    runMain(t, ['--cluster', 'sim', '--workload', bad]),
    runMain(t, ['--cluster=sim', `--workload=${missing}`]),
  ]);

  t.equal(demo.code, 0, 'the demo workload passes: exit 0');
  const lines = demo.stdout.trimEnd().split('\n');
  t.ok(lines.length > 10, `events were streamed (${lines.length})`);
  t.ok(lines.every((l) => typeof (JSON.parse(l) as { eventType?: unknown }).eventType === 'string'), 'every stdout line is an event with its eventType');
  t.match(demo.stderr, /^pacer: scheduling "demo" on the simulated cluster at 100000x real time/);
  t.match(demo.stderr, /^expectations:$/m, 'the summary lists the expectations');
  t.match(demo.stderr, /\nPASSED\n$/, 'and ends with the verdict');

  t.equal(invalid.code, 2, 'an invalid workload exits 2');
  t.match(invalid.stderr, `${bad}: /seed: required field "seed" is missing`, 'naming the file and the field');
  t.equal(invalid.stdout, '');

  // A missing workload is a one-line message and exit 2, like every other bad input.
  t.match(absent.stderr, missing, 'a missing workload names the file');
  t.equal(absent.code, 2, 'a missing workload exits 2, as a bad one does');
  t.notMatch(absent.stderr, /\n\s+at /, 'without a stack trace');
});
