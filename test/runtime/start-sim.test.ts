import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import t, { type Test } from 'tap';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { startSim, type RunningSim } from '../../src/runtime/start-sim';
import { formatMs } from '../../sim/runner/format-ms';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { sleep, tempDir, waitFor, within } from '../e2e/e2e-kit';
import { patientSignal } from '../harness/wait';
import { captureLog } from '../harness/log-capture';

/** `--cluster sim` with the REST API: startSim over a paced run of a small workload. */

/** A workload of `agents` agents, `duration` long, with `timeline` (YAML lines) as its steps. */
function workloadYaml(opts: { agents?: number; duration?: string; timeline?: string } = {}): string {
  return [
    'name: api-test',
    'seed: 7',
    `duration: ${opts.duration ?? '1h'}`,
    'cluster:',
    '  agents:',
    `    - { count: ${opts.agents ?? 3}, resources: { cpus: 2, mem: 2048, ports: "31000-31100" } }`,
    `timeline:${opts.timeline ?? ' []'}`,
    '',
  ].join('\n');
}

/** Starts pacer on the simulated cluster (port 0, 127.0.0.1, `speed`); closed after the test. */
async function startOn(t: Test, yaml: string, speed = 200): Promise<{ pacer: RunningSim; base: string; summary: () => string; records: () => Record<string, unknown>[] }> {
  const workload = join(tempDir(t, 'pacer-sim-api-'), 'workload.yaml');
  writeFileSync(workload, yaml);
  const config: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload, speed };
  const { log, records } = captureLog('json');
  const pacer = await startSim(config, { log });
  t.teardown(() => pacer.close());
  const summary = (): string => records().filter((r) => r.component === 'sim').map((r) => String(r.summary)).join('\n');
  return { pacer, base: `http://${pacer.address}`, summary, records };
}

async function getJson(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { signal: patientSignal() });
  return (await res.json()) as Record<string, unknown>;
}

t.test('an app created through the API is placed on simulated agents and its events stream', async (t) => {
  const { pacer, base } = await startOn(t, workloadYaml());
  t.match(pacer.address, /^127\.0\.0\.1:\d+$/);
  const changes: Record<string, unknown>[] = [];
  const source = new EventSource(`${base}/v2/events`);
  t.teardown(() => source.close());
  source.addEventListener('instance_changed_event', (e) => void changes.push(JSON.parse(e.data) as Record<string, unknown>));
  await within(new Promise<void>((resolve) => source.addEventListener('open', () => resolve(), { once: true })), 'the event stream to open');

  const created = await fetch(`${base}/v2/apps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: patientSignal(),
    body: JSON.stringify({ id: '/web', cmd: 'sleep 3600', instances: 2, cpus: 0.5, mem: 128 }),
  });
  t.equal(created.status, 201, 'created');
  t.match(await created.json(), { id: '/web', instances: 2 });

  const app = await waitFor(async () => {
    const body = (await getJson(`${base}/v2/apps/web`)).app as { tasksRunning: number; tasks: { host: string }[] };
    return body.tasksRunning === 2 && body;
  }, 'both instances running');
  t.equal(app.tasks.length, 2);
  for (const task of app.tasks) t.match(task.host, /^agent-\d$/, 'on a simulated agent');

  await waitFor(() => changes.some((e) => e.condition === 'Running' && e.runSpecId === '/web'), 'instance_changed_event Running');
  t.ok(changes.every((e) => e.runSpecId === '/web'), 'every instance change is of /web');
  t.equal((await getJson(`${base}/v2/info`)).name, 'marathon', 'the Marathon API, info included');
});

t.test('the workload runs and is reported at its end; the cluster then keeps running', async (t) => {
  const yaml = workloadYaml({
    duration: '2m',
    timeline: [
      '',
      '  - { at: 0s, app: { id: /worker, cmd: sleep 3600, instances: 2, cpus: 0.25, mem: 64 } }',
      '  - { at: 1m, expect: { instances: { /worker: { Running: 2 } } } }',
    ].join('\n'),
  });
  const { pacer, base, summary, records } = await startOn(t, yaml, 2000);
  const verdict = await within(pacer.workload, 'the workload to end');
  t.ok(verdict.passed, 'its expectation held');
  t.equal(verdict.expectations.length, 1);
  t.match(summary(), /expectations:[\s\S]*PASS[\s\S]*PASSED$/, 'the summary was logged');
  t.match(records().find((r) => r.component === 'sim'), { workload: 'api-test', seed: 7, passed: true, msg: 'workload api-test seed 7: PASSED' });
  t.notMatch(summary(), /sha256|^trace:/m, 'without the hash of a trace the paced run does not keep');
  const launches = records().filter((r) => r.component === 'scheduler' && r.decision === 'launch');
  t.equal(launches.filter((r) => /^\d[\dms.]*s$/.test(String(r.at)) && /^launch worker\.instance-[0-9a-f]{8} of \/worker on agent-\d$/.test(String(r.msg))).length, 2, 'one record per launch, at its virtual time');
  const endMs = VIRTUAL_EPOCH_MS + 120_000;
  await waitFor(() => pacer.session.nowMs() > endMs + 5000, 'virtual time to run past the workload');
  const scaled = await fetch(`${base}/v2/apps/worker`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, signal: patientSignal(),
    body: JSON.stringify({ instances: 3 }),
  });
  t.equal(scaled.status, 200, 'changes are accepted after the workload ended');
  await waitFor(async () => ((await getJson(`${base}/v2/apps/worker`)).app as { tasksRunning: number }).tasksRunning === 3, 'the third instance');
});

t.test('one record per decision, with the virtual time and the reader\'s fields, and no plan', async (t) => {
  const yaml = workloadYaml({ duration: '1m', timeline: '\n  - { at: 0s, app: { id: /api, cmd: sleep 3600, instances: 1, cpus: 0.25, mem: 64 } }' });
  const { pacer, records } = await startOn(t, yaml, 2000);
  await within(pacer.workload, 'the workload to end');
  t.match(records().find((r) => r.decision === 'launch'), {
    level: 30, component: 'scheduler', at: /^\d[\dms.]*s$/, decision: 'launch', runSpecId: '/api', instanceId: /^api\.instance-/, agentId: /^agent-\d$/,
    msg: /^launch api\.instance-[0-9a-f]{8} of \/api on agent-\d$/,
  });
  t.match(records().find((r) => r.decision === 'deployment'), { deploymentId: String, msg: /step 1\/2: StartApplication \/api$/ });
  t.ok(records().every((r) => !('plan' in r)), 'no plan, no group tree');
});

t.test('close() stops pacing and serving; a workload stopped before its duration is reported stopped, at the virtual time reached, without a verdict', async (t) => {
  const app = '\n  - { at: 0s, app: { id: /w, cmd: sleep 3600, instances: 1, cpus: 0.25, mem: 64 } }';
  const late = '\n  - { at: 9h, expect: { instances: { /w: { Running: 1 } } } }';
  const cases = [
    { name: 'no expectation checked', timeline: `${app}${late}`, verdict: ', before its expectations; no verdict', passed: undefined },
    { name: 'one of two checked, held', timeline: `${app}\n  - { at: 1s, expect: { instances: { /w: { total: 1 } } } }${late}`, verdict: ', before 1 of its 2 expectations; no verdict', passed: undefined },
    { name: 'one checked, failed', timeline: `${app}\n  - { at: 1s, expect: { instances: { /w: { total: 5 } } } }${late}`, verdict: '', passed: false },
    { name: 'no expectations at all', timeline: app, verdict: '; no verdict', passed: undefined },
  ];
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const { pacer, base, summary, records } = await startOn(t, workloadYaml({ duration: '10h', timeline: c.timeline }), 100);
      await waitFor(() => pacer.session.nowMs() > VIRTUAL_EPOCH_MS + 2000, 'virtual time to pass the expectation at 1s');
      await within(pacer.close(), 'close');
      const reachedMs = pacer.session.nowMs() - VIRTUAL_EPOCH_MS;
      await sleep(50);
      t.equal(pacer.session.nowMs() - VIRTUAL_EPOCH_MS, reachedMs, 'virtual time stands still where it was stopped');
      await t.rejects(fetch(`${base}/ping`, { signal: patientSignal() }), 'nothing listens any more');
      const result = await pacer.workload;
      t.match(result, { passed: false, virtualMs: reachedMs, stopped: { atMs: reachedMs, durationMs: 36_000_000 } });
      const where = `stopped at ${formatMs(reachedMs)} of 10h0m0.000s`;
      const msg = c.passed === false ? `workload api-test seed 7: FAILED: 1 expectation failed before it was ${where}` : `workload api-test seed 7: ${where}${c.verdict}`;
      const record = records().find((r) => r.component === 'sim');
      t.equal(record?.msg, msg, 'the log says where it stopped');
      t.equal(record?.passed, c.passed, 'passed: false only for a failed check');
      t.equal(record?.stoppedAt, formatMs(reachedMs));
      t.match(summary(), `virtual ${formatMs(reachedMs)} of 10h0m0.000s (stopped)`, 'the summary\'s virtual time is the time reached');
      t.notMatch(summary(), /\bPASSED\b/, 'never PASSED');
      t.notMatch(summary(), /^ +9h0m0\.000s/m, 'the step after the stop is not in the summary');
      await within(pacer.close(), 'a second close');
    });
  }
});

t.test('a bad workload fails startSim with the file, the field and what was expected', async (t) => {
  const dir = tempDir(t, 'pacer-sim-api-');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'name: half a scenario\n');
  const missing = join(dir, 'missing.yaml');
  const base: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0 };
  const cases = [
    { workload: bad, message: `${bad}: /seed: required field "seed" is missing` },
    { workload: missing, message: `${missing}: cannot read the workload` },
  ];
  for (const c of cases) await t.rejects(startSim({ ...base, workload: c.workload }), { message: c.message });
});
