import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { FlightRecorder } from '../../src/runtime/recording/flight-recorder';
import { RECORDING_FORMAT } from '../../src/runtime/recording/recording-format';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import { readRecording } from '../../sim/replay/read-recording';
import { replayRecording } from '../../sim/replay/replay-recording';
import { makeApp } from '../builders/run-spec-builders';
import { dumped, recordInputs } from './recorder-fixture';

// Format /3 writes deployment events with light plans ({id, steps, version}): full plans carry
// both roots with every app, so the always-on recorder spent most of an app creation among 1,000
// apps encoding them. Recordings of /1 and /2 (full plans) still replay: replay writes each
// recording's events as it was written.

const INPUTS: readonly SchedulerInput[] = [
  { type: 'putRunSpec', spec: makeApp({ id: '/a', instances: 2 }) },
  { type: 'putRunSpec', spec: makeApp({ id: '/b', instances: 1 }) },
];

function tmp(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-plans-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface PlanEventLine { readonly k: string; readonly e?: { readonly eventType: string; readonly plan?: Record<string, unknown> } }

function planEvents(text: string): Record<string, unknown>[] {
  return text.trim().split('\n').map((l) => JSON.parse(l) as PlanEventLine)
    .filter((r) => r.k === 'event' && r.e?.plan !== undefined).map((r) => r.e!.plan!);
}

t.test(`${RECORDING_FORMAT}: deployment events have light plans, and the dump replays`, async (t) => {
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 10 });
  recordInputs(recorder, INPUTS);
  const dump = dumped(recorder, join(tmp(t), 'ring'));
  const text = readFileSync(dump.path, 'utf8');
  const plans = planEvents(text);
  t.ok(plans.length >= 2, `${plans.length} plan events`);
  for (const plan of plans) t.strictSame(Object.keys(plan), ['id', 'steps', 'version']);
  const replay = replayRecording(readRecording('light', text));
  t.ok(replay.identical, JSON.stringify(replay.difference));
});

t.test('a format /2 recording (full plans) still replays; read as /3 it would not', async (t) => {
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 10, eventPlans: 'full' });
  recordInputs(recorder, INPUTS);
  const dir = tmp(t);
  const text = readFileSync(dumped(recorder, join(dir, 'ring')).path, 'utf8');
  const plans = planEvents(text);
  t.ok(plans.length >= 2);
  for (const plan of plans) t.strictSame(Object.keys(plan), ['id', 'original', 'target', 'steps', 'version']);
  const old = text.replace(`"recording":"${RECORDING_FORMAT}"`, '"recording":"pacer-recording/2"');
  t.not(old, text, 'the start record names format /2');
  t.ok(replayRecording(readRecording('old', old)).identical, '/2 replays with full plans');
  const misread = replayRecording(readRecording('misread', text));
  t.notOk(misread.identical, 'the same events under /3 differ: the check can fail');
  t.match(misread.difference?.recorded, /"original"/);
});

t.test('a format /3 recording (light plans, deployments\' roots written out) still replays', async (t) => {
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 10 });
  recordInputs(recorder, INPUTS);
  const text = readFileSync(dumped(recorder, join(tmp(t), 'ring')).path, 'utf8');
  const three = text.replace(`"recording":"${RECORDING_FORMAT}"`, '"recording":"pacer-recording/3"');
  t.not(three, text, 'the start record names format /3');
  t.ok(replayRecording(readRecording('three', three)).identical, '/3 replays');
});
