import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import t, { type Test } from 'tap';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { startSim, type RunningSim } from '../../src/runtime/start-sim';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { sleep, tempDir, waitFor, within } from '../e2e/e2e-kit';
import { patientSignal } from '../harness/wait';

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
async function startOn(t: Test, yaml: string, speed = 200, logFormat: PacerConfig['logFormat'] = 'text'): Promise<{ pacer: RunningSim; base: string; logs: string[]; lines: string[] }> {
  const workload = join(tempDir(t, 'pacer-sim-api-'), 'workload.yaml');
  writeFileSync(workload, yaml);
  const config: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload, speed, logFormat };
  const logs: string[] = [];
  const lines: string[] = [];
  const pacer = await startSim(config, { decisions: (line) => void lines.push(line), log: (text) => void logs.push(text) });
  t.teardown(() => pacer.close());
  return { pacer, base: `http://${pacer.address}`, logs, lines };
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
  const { pacer, base, logs, lines } = await startOn(t, yaml, 2000);
  const verdict = await within(pacer.workload, 'the workload to end');
  t.ok(verdict.passed, 'its expectation held');
  t.equal(verdict.expectations.length, 1);
  t.match(logs.join('\n'), /expectations:[\s\S]*PASS[\s\S]*PASSED$/, 'the summary was logged');
  t.notMatch(logs.join('\n'), /sha256|^trace:/m, 'without the hash of a trace the paced run does not keep');
  t.equal(lines.filter((l) => /^ +\d[\dms.]*s {2}launch worker\.instance-[0-9a-f]{8} of \/worker on agent-\d$/.test(l)).length, 2, 'one readable line per launch');
  const endMs = VIRTUAL_EPOCH_MS + 120_000;
  await waitFor(() => pacer.session.nowMs() > endMs + 5000, 'virtual time to run past the workload');
  const scaled = await fetch(`${base}/v2/apps/worker`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, signal: patientSignal(),
    body: JSON.stringify({ instances: 3 }),
  });
  t.equal(scaled.status, 200, 'changes are accepted after the workload ended');
  await waitFor(async () => ((await getJson(`${base}/v2/apps/worker`)).app as { tasksRunning: number }).tasksRunning === 3, 'the third instance');
});

t.test('--log_format json: one JSON object per decision, with the virtual time and no plan', async (t) => {
  const yaml = workloadYaml({ duration: '1m', timeline: '\n  - { at: 0s, app: { id: /api, cmd: sleep 3600, instances: 1, cpus: 0.25, mem: 64 } }' });
  const { pacer, lines } = await startOn(t, yaml, 2000, 'json');
  await within(pacer.workload, 'the workload to end');
  const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(records.find((r) => r.decision === 'launch'), {
    time: /^2026-01-01T00:00:0\d\.\d{3}Z$/, decision: 'launch', runSpecId: '/api', instanceId: /^api\.instance-/, agentId: /^agent-\d$/,
    msg: /^launch api\.instance-[0-9a-f]{8} of \/api on agent-\d$/,
  });
  t.match(records.find((r) => r.decision === 'deployment'), { deploymentId: String, msg: /step 1\/2: StartApplication \/api$/ });
  t.ok(records.every((r) => !('plan' in r)), 'no plan, no group tree');
});

t.test('close() stops pacing and serving, and reports a workload that had not ended', async (t) => {
  const { pacer, base, logs } = await startOn(t, workloadYaml({ duration: '10h' }), 100);
  await waitFor(() => pacer.session.nowMs() > VIRTUAL_EPOCH_MS, 'virtual time to move');
  await within(pacer.close(), 'close');
  const stoppedAtMs = pacer.session.nowMs();
  await sleep(50);
  t.equal(pacer.session.nowMs(), stoppedAtMs, 'virtual time stands still');
  await t.rejects(fetch(`${base}/ping`, { signal: AbortSignal.timeout(2000) }), 'nothing listens any more');
  t.match(logs.join('\n'), /PASSED$/, 'the (expectation-free) workload was reported');
  t.ok((await pacer.workload).passed);
  await within(pacer.close(), 'a second close');
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
  for (const c of cases) await t.rejects(startSim({ ...base, workload: c.workload }, { log: () => undefined }), { message: c.message });
});
