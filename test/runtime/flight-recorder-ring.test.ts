import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildServer } from '../../src/api/server';
import { parseConfig, type PacerConfig } from '../../src/runtime/config';
import { dutiesExtras, openRuntime, type RuntimeBase } from '../../src/runtime/runtime-parts';
import pino from 'pino';
import { RING_DUMPS_KEPT } from '../../src/runtime/recording/ring-dump-dir';
import { DEFAULT_RING_INPUTS, FlightRecorder } from '../../src/runtime/recording/flight-recorder';
import { RECORDING_FILE } from '../../src/runtime/recording/recording-format';
import type { Scheduler } from '../../src/scheduler/scheduler';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import type { StoredState } from '../../src/scheduler/ports/store';
import { emptyRoot } from '../../src/scheduler/groups/group-tree';
import { rootWith } from '../builders/group-builders';
import { readRecording, RecordingProblem } from '../../sim/replay/read-recording';
import { replayRecording } from '../../sim/replay/replay-recording';
import { dumped, recordInputs } from './recorder-fixture';
import { replayPorts } from '../../sim/replay/replay-ports';
import { makeApp, versionAt } from '../builders/run-spec-builders';
import { makeApi } from '../api/api-fixture';
import { cliMain, type CliIo } from '../../sim/runner/cli-main';

/**
 * The flight recorder's always-on ring (issue 18): bounded by `--record_ring` inputs; a dump while
 * nothing fell out replays; a dump after inputs fell out says so and replay refuses it; the flags;
 * `POST /pacer/v1/recording` where there is no recorder.
 */

function tmp(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ring-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const INPUTS: readonly SchedulerInput[] = [
  { type: 'putRunSpec', spec: makeApp({ id: '/a', instances: 2 }) },
  { type: 'scale', runSpecId: '/a', instances: 3 },
  { type: 'putRunSpec', spec: makeApp({ id: '/b', instances: 1 }) },
];

t.test('a ring that kept every input dumps a recording that replays; one that dropped inputs says so, and replay refuses it', (t) => {
  const dir = tmp(t);
  const whole = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 3 });
  recordInputs(whole, INPUTS);
  const kept = dumped(whole, join(dir, 'whole'));
  t.match(kept, { inputs: 3, dropped: 0, replayable: true });
  const replay = replayRecording(readRecording('whole', readFileSync(kept.path, 'utf8')));
  t.equal(replay.identical, true, 'the whole ring replays exactly');
  t.equal(replay.inputs, 3);

  const small = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 2 });
  recordInputs(small, INPUTS);
  const cut = dumped(small, join(dir, 'cut'));
  t.match(cut, { inputs: 2, dropped: 1, replayable: false });
  const text = readFileSync(cut.path, 'utf8');
  t.equal(text.split('\n').filter((l) => l.includes('"k":"in"')).length, 2, 'only the last two inputs are kept');
  t.notOk(text.includes('"k":"snapshot"'), 'and no snapshot: it describes the start, not the first input kept');
  let problem: unknown;
  try { readRecording('cut', text); } catch (err) { problem = err; }
  t.ok(problem instanceof RecordingProblem, 'replay refuses it');
  t.match((problem as Error).message, /1 earlier inputs had fallen out \(--record_ring\).*can be read but not replayed/, 'saying why');
  t.throws(() => dumped(whole, join(dir, 'whole')), /already holds a recording/, 'a dump never overwrites one');
  const written = new Map<string, string>();
  let out = '';
  const io: CliIo = { readFile: (p) => readFileSync(p, 'utf8'), writeFile: (p, text) => void written.set(p, text), stdout: (text) => void (out += text), stderr: (text) => void (out += text) };
  t.equal(cliMain(['replay', join(dir, 'whole'), '--trace', 'replayed.jsonl'], io), 0, out);
  const recorded = readFileSync(kept.path, 'utf8').split('\n').slice(1);
  t.same((written.get('replayed.jsonl') ?? '').split('\n').slice(1), recorded, '--trace writes the replayed records: the recording\'s, after its start record');
  t.equal(cliMain(['replay', join(dir, 'cut')], io), 2, 'a ring that cannot be replayed is bad input (exit 2)');
  t.end();
});

t.test('the ring is bounded by characters too, and --record_ring 0 keeps no input', (t) => {
  const dir = tmp(t);
  const bounded = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 100, ringChars: 1 });
  recordInputs(bounded, INPUTS);
  const dump = dumped(bounded, join(dir, 'chars'));
  t.match(dump, { inputs: 1, dropped: 2, replayable: false }, 'over its characters the ring keeps only the input handled last');
  t.match(readFileSync(dump.path, 'utf8'), /"k":"in","type":"putRunSpec".*"id":"\/b"/, 'that input, with its records');
  const none = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 0 });
  recordInputs(none, INPUTS);
  t.equal(none.dump(join(dir, 'none')), undefined, 'no ring: nothing to dump');
  t.notOk(existsSync(join(dir, 'none')), 'and no directory made');
  t.end();
});

t.test('without --record, a snapshot larger than the ring keeps is not encoded to its end; one that cannot be encoded is dropped, not thrown', (t) => {
  const apps = Array.from({ length: 200 }, (_, i) => makeApp({ id: `/a${i}`, version: versionAt(1), labels: { big: 'x'.repeat(4096) } }));
  const stored: StoredState = { root: rootWith(emptyRoot(versionAt(0)), versionAt(1), ...apps), runSpecs: apps, versions: apps, rootVersions: [], deployments: [], instances: [] };
  const large = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 100, ringChars: 20_000 });
  large.wrap(replayPorts({ nowMs: () => 0 }, [], stored)).store.load();
  const text = readFileSync(dumped(large, join(tmp(t), 'large')).path, 'utf8');
  const chars = Number(/"snapshotDroppedChars":(\d+)/.exec(text)?.[1]);
  t.ok(chars > 20_000 && chars < 40_000, `stopped at ${chars} characters of about 850,000`);
  const broken = { ...stored, frameworkId: (() => 'not a value') as unknown as string };
  const failing = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 100 });
  t.doesNotThrow(() => failing.wrap(replayPorts({ nowMs: () => 0 }, [], broken)).store.load(), 'the store still loads');
  const brokenText = readFileSync(dumped(failing, join(tmp(t), 'broken')).path, 'utf8');
  t.match(brokenText, /"snapshotDroppedChars":\d+,"snapshotError":"codec: cannot encode a function at \$"/, 'the dump says the snapshot was dropped, and why');
  t.throws(() => readRecording('broken', brokenText), /without its start-up snapshot \(it could not be encoded: codec: cannot encode a function/, 'replay says why it refuses');
  t.end();
});

t.test('a snapshot larger than the ring keeps is written to --record DIR only; a dump of the ring says so and replay refuses it', (t) => {
  const dir = tmp(t);
  const app = makeApp({ id: '/a', instances: 1, version: versionAt(1), labels: { big: 'x'.repeat(4096) } });
  const stored: StoredState = { root: rootWith(emptyRoot(versionAt(0)), versionAt(1), app), runSpecs: [app], versions: [app], rootVersions: [], deployments: [], instances: [] };
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 100, ringChars: 3000, dir: join(dir, 'file') });
  recordInputs(recorder, [{ type: 'scale', runSpecId: '/a', instances: 2 }], stored);
  recorder.close();
  const dump = dumped(recorder, join(dir, 'ring'));
  t.match(dump, { inputs: 1, dropped: 0, replayable: false }, 'the input is kept, the snapshot is not');
  const text = readFileSync(dump.path, 'utf8');
  t.notOk(text.includes('"k":"snapshot"'), 'no snapshot in the dump');
  t.match(text, /"ring":\{"inputs":1,"dropped":0,"snapshotDroppedChars":\d{4,}\}/, 'its start record says how large the snapshot was');
  t.throws(() => readRecording('ring', text), /without its start-up snapshot \(at least \d+ characters, more than the ring keeps\)/, 'replay refuses it, saying why');
  const file = readFileSync(join(dir, 'file', RECORDING_FILE), 'utf8');
  t.equal(file.split('\n').filter((l) => l.startsWith('{"t":0,"k":"snapshot"')).length, 1, '--record DIR has the snapshot');
  t.equal(replayRecording(readRecording('file', file)).identical, true, 'and replays');
  t.end();
});

t.test('--record never overwrites a recording: a restart writes recording-2.jsonl, then -3', (t) => {
  const dir = tmp(t);
  const paths = [1, 2, 3].map(() => {
    const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 1, dir });
    recorder.close();
    return recorder.path;
  });
  t.same(paths, [RECORDING_FILE, 'recording-2.jsonl', 'recording-3.jsonl'].map((f) => join(dir, f)));
  t.match(readFileSync(join(dir, RECORDING_FILE), 'utf8'), /"k":"end"/, 'the first one is kept');
  t.end();
});

t.test('--record and --record_ring', (t) => {
  const cwd = '/srv/pacer';
  t.match(parseConfig(['--record', 'rec'], {}, cwd), { recordDir: '/srv/pacer/rec', recordRingInputs: DEFAULT_RING_INPUTS });
  t.match(parseConfig([], { PACER_RECORD_RING: '50' }, cwd), { recordRingInputs: 50 });
  t.match(parseConfig(['--record_ring', '-1'], {}, cwd), { error: /--record_ring -1: expected an integer from 0 to 1000000/ });
  t.end();
});

t.test('POST /pacer/v1/recording: 404 without a recorder, the dump with one, 503 when it cannot be written', async (t) => {
  const without = makeApi();
  const res = await without.app.inject({ method: 'POST', url: '/pacer/v1/recording' });
  t.equal(res.statusCode, 404);
  t.match(res.json(), { message: /no flight recorder/ });
  const dump = { path: '/x/recording.jsonl', inputs: 3, dropped: 0, replayable: true };
  const withRecorder = buildServer({ deps: { ...without.deps, recording: { dump: () => dump } }, stream: { close: () => undefined } });
  const ok = await withRecorder.inject({ method: 'POST', url: '/pacer/v1/recording' });
  t.equal(ok.statusCode, 200);
  t.same(ok.json(), dump);
  const off = buildServer({ deps: { ...without.deps, recording: { dump: () => undefined } }, stream: { close: () => undefined } });
  const none = await off.inject({ method: 'POST', url: '/pacer/v1/recording' });
  t.equal(none.statusCode, 409, '--record_ring 0');
  t.match(none.json(), { message: /keeps no ring of recent inputs \(--record_ring 0\)/ });
  const failing = buildServer({ deps: { ...without.deps, recording: { dump: () => { throw new Error('ENOSPC: no space left on device'); } } }, stream: { close: () => undefined } });
  const refused = await failing.inject({ method: 'POST', url: '/pacer/v1/recording' });
  t.equal(refused.statusCode, 503);
  t.match(refused.json(), { message: /cannot write the recording: ENOSPC/ });
});

t.test('POST /pacer/v1/recording keeps at most RING_DUMPS_KEPT dumps: the oldest are removed, nothing else is', (t) => {
  // Each dump is a fresh directory of up to 64 Mi characters: before, every POST added one (a
  // client filled the disk, 64 MB a call); now the oldest ring dumps beyond the bound go.
  const dir = tmp(t);
  const storePath = join(dir, 'pacer.db');
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 10 });
  recordInputs(recorder, INPUTS);
  const config = { ...(parseConfig([], {}, dir) as PacerConfig), storePath };
  const base = { store: {}, recorder, lastOffers: { all: () => [] }, clock: { nowMs: () => 0 } } as unknown as RuntimeBase;
  const { recording } = dutiesExtras(config, base, {} as Scheduler);
  const recordings = join(dir, 'recordings');
  mkdirSync(join(recordings, 'mine'), { recursive: true });
  writeFileSync(join(recordings, 'ring-notes.txt'), 'an operator file');
  const paths: string[] = [];
  for (let i = 0; i < RING_DUMPS_KEPT + 3; i++) {
    const dump = recording?.dump();
    if (dump === undefined) throw new Error('no dump');
    paths.push(dump.path);
    t.ok(existsSync(dump.path), `dump ${i}: the answered file exists`);
  }
  const rings = readdirSync(recordings).filter((name) => name.startsWith('ring-2'));
  t.equal(rings.length, RING_DUMPS_KEPT, 'at most RING_DUMPS_KEPT ring dumps are kept');
  t.same(paths.slice(-RING_DUMPS_KEPT).map((p) => existsSync(p)), Array(RING_DUMPS_KEPT).fill(true), 'the newest are kept');
  t.same(paths.slice(0, 3).map((p) => existsSync(p)), [false, false, false], 'the oldest are removed');
  t.ok(existsSync(join(recordings, 'mine')) && existsSync(join(recordings, 'ring-notes.txt')), 'what is not a ring dump is left alone');
  t.end();
});

t.test('a recorder without a ring (--record_ring 0) writes and removes nothing', (t) => {
  const dir = tmp(t);
  const config = { ...(parseConfig([], {}, dir) as PacerConfig), storePath: join(dir, 'pacer.db') };
  const recorder = new FlightRecorder({ cluster: 'local', options: {}, ringInputs: 0 });
  const base = { store: {}, recorder, lastOffers: { all: () => [] }, clock: { nowMs: () => 0 } } as unknown as RuntimeBase;
  t.equal(dutiesExtras(config, base, {} as Scheduler).recording?.dump(), undefined);
  t.notOk(existsSync(join(dir, 'recordings')), 'no recordings directory made');
  t.end();
});

t.test('--record: the start names the file it writes (after a restart, recording-2.jsonl)', (t) => {
  const dir = tmp(t);
  const records: { msg: string; recording?: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line) as { msg: string; recording?: string }) });
  const config = parseConfig(['--store', join(dir, 'pacer.db'), '--record', join(dir, 'rec')], {}, dir);
  if (config === 'help' || 'error' in config) throw new Error('config');
  for (const file of [RECORDING_FILE, 'recording-2.jsonl']) {
    const base = openRuntime(config, log);
    base.release();
    const path = join(dir, 'rec', file);
    t.match(records.at(-1), { recording: path, msg: `flight recorder: every input written to ${path} (replay: npm run sim -- replay ${path})` }, file);
  }
  t.end();
});
