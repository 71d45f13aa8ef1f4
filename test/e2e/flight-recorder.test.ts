import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliMain, type CliIo } from '../../sim/runner/cli-main';
import { RECORDING_FILE } from '../../src/runtime/recording/recording-format';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses, type JsonObject, type Pacer } from './pacer-kit';

/**
 * The flight recorder (issue 18) over the real composition of `npm start`: real processes, the
 * SQLite store, the API. A recording made with `--record DIR` while apps are created, scaled,
 * health-checked, killed and deleted replays with `npm run sim -- replay DIR` reproducing every
 * record byte for byte — from an empty store, and after a restart from the recovered snapshot
 * (re-adopted tasks) — as does the ring written by `POST /pacer/v1/recording`; `--until` prints
 * the state at an instant, `--report` writes the HTML report; an altered recording is reported
 * as differing at the altered line.
 */

/** A tiny HTTP server on $PORT0 (the node running this test, so no PATH lookup). */
const SERVER_CMD = `${JSON.stringify(process.execPath)} -e "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT0,'127.0.0.1')"`;

/** `npm run sim -- …` in this process: the exit code and what it printed. */
function sim(argv: readonly string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: CliIo = {
    readFile: (path) => readFileSync(path, 'utf8'), writeFile: (path, text) => writeFileSync(path, text),
    stdout: (text) => { out += text; }, stderr: (text) => { err += text; },
  };
  const code = cliMain(argv, io);
  return { code, out, err };
}

async function runningCount(pacer: Pacer, id: string): Promise<number> {
  const app = (await pacer.request('GET', `/v2/apps${id}`)).json.app as { tasksRunning?: number; tasksHealthy?: number } | undefined;
  return app?.tasksHealthy ?? -1;
}

async function tasksOf(pacer: Pacer, id: string): Promise<string[]> {
  const tasks = (await pacer.request('GET', `/v2/apps${id}/tasks`)).json.tasks as JsonObject[] | undefined;
  return (tasks ?? []).map((task) => String(task.id));
}

t.test('a recording of the local cluster with real processes replays byte for byte; an altered one differs', async (t) => {
  const dir = tempDir(t);
  const tasks = new TaskProcesses(t);
  const first = join(dir, 'rec-1');
  const second = join(dir, 'rec-2');
  const config = e2eConfig(dir, { localOfferIntervalMs: 50 });

  // Run 1, from an empty store: create an app with a health check, scale it up (over its deployment).
  let pacer = await startPacer(t, { ...config, recordDir: first });
  const created = await pacer.request('POST', '/v2/apps', {
    id: '/rec', cmd: SERVER_CMD, cpus: 0.1, mem: 32, instances: 1, portDefinitions: [{ port: 0 }],
    healthChecks: [{ protocol: 'HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 60, intervalSeconds: 1, timeoutSeconds: 10, maxConsecutiveFailures: 30 }],
  });
  t.equal(created.status, 201, 'created');
  t.equal((await pacer.request('PUT', '/v2/apps/rec?force=true', { instances: 2 })).status, 200, 'scaled to 2');
  await waitFor(async () => { tasks.record(pacer.running); return await runningCount(pacer, '/rec') === 2; }, 'two healthy instances');
  await pacer.close();

  // Run 2, after a restart: the snapshot holds the app and its instances (re-adopted); kill one, scale down, delete.
  pacer = await startPacer(t, { ...config, recordDir: second });
  await waitFor(async () => await runningCount(pacer, '/rec') === 2, 'both healthy again after the restart');
  const [victim] = await tasksOf(pacer, '/rec');
  t.equal((await pacer.request('DELETE', `/v2/apps/rec/tasks/${victim}`)).status, 200, 'one task killed');
  await waitFor(async () => {
    tasks.record(pacer.running);
    const now = await tasksOf(pacer, '/rec');
    return !now.includes(victim) && await runningCount(pacer, '/rec') === 2;
  }, 'the killed instance replaced and healthy');
  t.equal((await pacer.request('PUT', '/v2/apps/rec?force=true', { instances: 1 })).status, 200, 'scaled to 1');
  await waitFor(async () => (await tasksOf(pacer, '/rec')).length === 1, 'one instance left');
  const ring = await pacer.request('POST', '/pacer/v1/recording');
  t.equal(ring.status, 200, 'the ring written');
  t.equal(ring.json.replayable, true, 'nothing fell out of the ring yet');
  t.equal((await pacer.request('DELETE', '/v2/apps/rec')).status, 200, 'deleted');
  await waitFor(async () => (await pacer.request('GET', '/v2/apps/rec')).status === 404
    && pacer.running.cluster.tasks().every((task) => ['TASK_KILLED', 'TASK_FINISHED', 'TASK_FAILED'].includes(task.state)), 'the app and its tasks gone');
  await pacer.shutdown();

  for (const recording of [first, second, String(ring.json.path)]) {
    const replay = sim(['replay', recording]);
    t.equal(replay.code, 0, `${recording} replays exactly: ${replay.out.split('\n').at(-2) ?? ''}${replay.err}`);
    t.match(replay.out, /REPRODUCED: all \d+ recorded records/, 'it says so');
  }
  const text = readFileSync(join(second, RECORDING_FILE), 'utf8');
  t.match(text, /"k":"in","type":"killInstances"/, 'the kill is an input of the recording');
  t.match(text, /"k":"snapshot","state":\{"root":/, 'run 2 starts from a snapshot of the store');
  for (const kind of ['"type":"offers"', '"type":"status"', '"kind":"healthProbe"', '"type":"probeResult"', '"op":"kill"', '"op":"accept"', '"k":"draws"']) {
    t.ok(text.includes(kind), `the recording holds ${kind}`);
  }

  // --until: the state at an instant; --report: the HTML report of the replay.
  const killAt = (JSON.parse(text.split('\n').find((l) => l.includes('"type":"killInstances"')) ?? '{}') as { t: number }).t;
  const report = join(dir, 'replay.html');
  const until = sim(['replay', second, '--until', String(killAt), '--report', report]);
  t.equal(until.code, 0, 'a replay stopped at the kill reproduces everything up to it');
  t.match(until.out, /state at [\d.ms]+:\n {2}run specs \(1\):\n {4}\/rec {2}target 2; instances 2: /, 'the state at the kill: /rec with its two instances');
  t.match(until.out, /launch queue \(/, 'and the launch queue');
  t.match(readFileSync(report, 'utf8'), /replay of .*rec-2/, 'the report of the replay');

  // An altered recording: one event of the core changed.
  const altered = join(dir, 'altered');
  mkdirSync(altered);
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.includes('"k":"event"') && l.includes('"taskStatus":"TASK_RUNNING"'));
  t.ok(index > 0, 'a TASK_RUNNING event to alter');
  lines[index] = lines[index].replace('"taskStatus":"TASK_RUNNING"', '"taskStatus":"TASK_STAGING"');
  writeFileSync(join(altered, RECORDING_FILE), lines.join('\n'));
  const differs = sim(['replay', altered]);
  t.equal(differs.code, 1, 'an altered recording is not reproduced');
  t.match(differs.out, new RegExp(`DIFFERS at line ${index + 1} of the recording`), 'the first difference is the altered line');
  t.match(differs.out, /recorded: .*TASK_STAGING/, 'showing what was recorded');
  t.match(differs.out, /replayed: .*TASK_RUNNING/, 'and what the replay did');

  // An altered input: the kill made a kill with wipe (forget the instance), so the core decides otherwise.
  const inputAltered = join(dir, 'input-altered');
  mkdirSync(inputAltered);
  const wiped = text.split('\n').map((l) => (l.includes('"k":"in","type":"killInstances"') ? l.replace('"wipe":false', '"wipe":true') : l));
  t.ok(wiped.join('\n') !== text, 'the kill input altered');
  writeFileSync(join(inputAltered, RECORDING_FILE), wiped.join('\n'));
  const inputDiffers = sim(['replay', inputAltered]);
  t.equal(inputDiffers.code, 1, 'a recording whose input was altered is not reproduced');
  t.match(inputDiffers.out, /DIFFERS at line \d+ of the recording \([^)]*input at line \d+: killInstances\)/, 'the difference follows the altered input');
});
