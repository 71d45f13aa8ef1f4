import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { CORE_FAILURE_EXIT_CODE } from '../../src/runtime/core-failure';
import { FakeMaster } from '../cluster/mesos/fake-master/fake-master';
import { taskStatus } from '../cluster/mesos/fake-master/sample-events';
import { nodeArgsFor } from '../harness/node-entry';
import { agentPortsArgs } from '../harness/agent-ports';
import { patientSignal, waitFor } from '../harness/wait';
import { tempDir } from './e2e-kit';
import { exitOf, startupPort, type MainProcess } from './main-kit';
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * A failure of the core stops pacer with the input that caused it, the same over every adapter
 * (docs/architecture.md, "One loop"): the API (a command: no 500 comes back, the process ends),
 * the local cluster's and the Mesos driver's updates, and `--cluster sim` (an input of the
 * workload's run, and an API command). The test-only entry test/e2e/fixtures/tripwire-main.ts runs
 * `src/main.ts` with an assertion in the core that a fake input trips (`TRIPWIRE_INPUT`).
 */

/** Spawns the tripwired main with `args`; an input of type `trip` mentioning "tripwire" fails the core. */
function spawnTripwired(t: Test, trip: string, args: readonly string[]): MainProcess {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PACER_')) env[k] = v;
  const child = spawn(process.execPath, [...nodeArgsFor('test/e2e/fixtures/tripwire-main.ts'), ...args], {
    cwd: REPO_ROOT, env: { ...env, TRIPWIRE_INPUT: trip }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The `fatal` record of the log (JSON lines on stderr: not a terminal). */
function fatalRecord(stderr: string): { input: Record<string, unknown>; err: { message: string; stack: string }; component: string } {
  const records = stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const fatal = records.find((r) => r.level === 60);
  if (fatal === undefined) throw new Error(`no fatal record in:\n${stderr}`);
  return fatal as never;
}

/** Exit code 70, and the fatal record names the input (of `type`) and carries the assertion's stack. */
async function stopsWith(t: Test, main: MainProcess, type: string): Promise<Record<string, unknown>> {
  const { code } = await exitOf(main, 'the process to stop');
  t.equal(code, CORE_FAILURE_EXIT_CODE, 'exit code 70 (EX_SOFTWARE)');
  const fatal = fatalRecord(main.stderr());
  t.equal(fatal.component, 'loop');
  t.equal(fatal.input.type, type, `the input that failed: ${type}`);
  t.match(JSON.stringify(fatal.input), /tripwire/, 'the input, as JSON');
  t.match(fatal.err.message, /^assertion failed: tripwire: /);
  t.match(fatal.err.stack, /^AssertionError: assertion failed: tripwire[^\n]*\n\s+at /, 'and the stack');
  return fatal.input;
}

/** POSTs an app; the answer, or the error when the connection ended without one. */
async function postApp(port: number, app: Record<string, unknown>): Promise<Response | Error> {
  try {
    return await fetch(`http://127.0.0.1:${port}/v2/apps`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(app), signal: patientSignal(),
    });
  } catch (err) {
    return err as Error;
  }
}

function localArgs(t: Test): string[] {
  const dir = tempDir(t);
  return ['--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'), ...agentPortsArgs()];
}

/**
 * The tripwired pacer of the two API tests, started on first use and stopped when the file ends:
 * the 4xx test asks it first (it must go on serving), then the command test fails its core (it
 * must end). One process for both: a pacer's start costs about 2 s of CPU under c8.
 */
let apiPacer: Promise<{ main: MainProcess; port: number }> | undefined;
function sharedApiPacer(): Promise<{ main: MainProcess; port: number }> {
  return apiPacer ??= (async () => {
    const main = spawnTripwired(t, 'putRunSpec', localArgs(t));
    return { main, port: await startupPort(main) };
  })();
}

t.test('an API validation error is a 4xx, and pacer goes on', async (t) => {
  const { port } = await sharedApiPacer();
  const answer = await postApp(port, { id: '/tripwire', cmd: 'sleep 5', cpus: 'lots' });
  t.equal(answer instanceof Error ? 0 : answer.status, 422, 'refused before it reaches the core');
  const ping = await fetch(`http://127.0.0.1:${port}/ping`, { signal: patientSignal() });
  t.equal(await ping.text(), 'pong', 'still serving');
});

t.test('the API: a command that fails the core ends the process, with no answer (never a 500)', async (t) => {
  // After the test above on the same process when both run: the refused request changed nothing it would see.
  const { main, port } = await sharedApiPacer();
  const answer = await postApp(port, { id: '/tripwire', cmd: 'sleep 5', cpus: 0.01, mem: 8 });
  t.ok(answer instanceof Error, `no answer: the connection ends (${answer instanceof Error ? answer.message : answer.status})`);
  const input = await stopsWith(t, main, 'putRunSpec');
  t.match(input, { spec: { id: '/tripwire' } });
});

t.test('the local cluster: a task update that fails the core ends the process', async (t) => {
  const main = spawnTripwired(t, 'status', localArgs(t));
  const port = await startupPort(main);
  const answer = await postApp(port, { id: '/tripwire-local', cmd: 'sleep 5', cpus: 0.01, mem: 8 });
  t.equal(answer instanceof Error ? 0 : answer.status, 201, 'the command itself is fine');
  const input = await stopsWith(t, main, 'status');
  t.match(input, { status: { taskId: /^tripwire-local\./ } });
});

t.test('the Mesos driver: an UPDATE that fails the core ends the process (not a warning)', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const dir = tempDir(t);
  const main = spawnTripwired(t, 'status', ['--cluster', 'mesos', '--master', master.url, '--port', '0', '--store', join(dir, 'pacer.db')]);
  await waitFor(() => master.subscribed || main.child.exitCode !== null, 'the subscription');
  master.send({ type: 'UPDATE', update: { status: taskStatus('tripwire-mesos', 'TASK_RUNNING') } });
  const input = await stopsWith(t, main, 'status');
  t.match(input, { status: { taskId: 'tripwire-mesos' } });
});

t.test('--cluster sim: an input of the run that fails the core ends the process', async (t) => {
  const workload = join(tempDir(t), 'tripwire.yaml');
  writeFileSync(workload, [
    'name: tripwire', 'seed: 3', 'duration: 1m',
    'cluster:', '  agents:', '    - count: 1', '      resources: { cpus: 2, mem: 2048, disk: 1000, ports: "31000-31100" }',
    'timeline:', '  - at: 0s', '    app: { id: /tripwire-sim, cmd: "sleep 3600", instances: 1, cpus: 0.1, mem: 32 }', '',
  ].join('\n'));
  const main = spawnTripwired(t, 'status', ['--cluster', 'sim', '--port', '0', '--speed', '50', '--workload', workload]);
  const input = await stopsWith(t, main, 'status');
  t.match(input, { status: { taskId: /^tripwire-sim\./ } });
});

t.test('--cluster sim: an API command that fails the core ends the process', async (t) => {
  const main = spawnTripwired(t, 'putRunSpec', ['--cluster', 'sim', '--port', '0', '--speed', '1']);
  const port = await startupPort(main);
  const answer = await postApp(port, { id: '/tripwire', cmd: 'sleep 5', cpus: 0.01, mem: 8 });
  t.ok(answer instanceof Error, 'no answer: the connection ends');
  await stopsWith(t, main, 'putRunSpec');
});

t.test('the text form prints the input and the stack too', async (t) => {
  const main = spawnTripwired(t, 'putRunSpec', [...localArgs(t), '--log_format', 'text']);
  const port = await startupPort(main);
  await postApp(port, { id: '/tripwire', cmd: 'sleep 5', cpus: 0.01, mem: 8 });
  const { code } = await exitOf(main, 'the process to stop');
  t.equal(code, CORE_FAILURE_EXIT_CODE);
  t.match(main.stderr(), /FATAL: loop: assertion failed: tripwire: .*pacer stops[^\n]*\n {4}input: \{"type":"putRunSpec".*"\/tripwire"/);
  t.match(main.stderr(), /\nAssertionError: assertion failed: tripwire[^\n]*\n\s+at /);
});
