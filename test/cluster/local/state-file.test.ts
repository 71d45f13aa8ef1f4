import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DAMAGED_COPIES_MAX, StateFile, type ExecutorRecord } from '../../../src/cluster/local/state-file';
import { executorToStored } from '../../../src/cluster/local/stored-executor';
import type { MasterReservation } from '../../../src/master/master';

/** A small executor record; `pid` set when given. */
function executor(key: string, pid?: number, pad = ''): ExecutorRecord {
  return {
    executorKey: key, executorId: key, agentId: 'agent-1', group: false, allocation: [],
    tasks: [{
      taskId: key, runSpecId: '/app', instanceId: key, sandbox: `/tmp/sb/${key}`, hostPorts: [], killGracePeriodMs: 3000,
      resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, launchedAtMs: 1, env: { PAD: pad }, state: 'TASK_STAGING',
      ...(pid === undefined ? {} : { pid }),
    }],
  };
}

function fresh(t: { teardown(fn: () => void): void }): StateFile {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return new StateFile(join(dir, 'local-cluster.json'));
}

const keysAndPids = (file: StateFile): [string, number | undefined][] =>
  (new StateFile(file.path).load()?.executors ?? []).map((e) => [e.executorKey, e.tasks[0].pid]);

t.test('no snapshot: nothing saved yet', async (t) => {
  t.equal(fresh(t).load(), undefined);
});

t.test('the journal applies over its snapshot in order: puts replace, deletes remove', async (t) => {
  const file = fresh(t);
  file.save({ version: 1, frameworkId: 'fw', executors: [executor('a', 1)] });
  file.append([executor('b')], []);
  file.append([executor('b', 2), executor('c')], ['a']);
  t.same(keysAndPids(file), [['b', 2], ['c', undefined]]);
  t.equal(new StateFile(file.path).load()?.frameworkId, 'fw');
  file.close();
});

t.test('a torn last line (a crash inside the write) and what follows it are ignored', async (t) => {
  const file = fresh(t);
  file.save({ version: 1, frameworkId: 'fw', executors: [] });
  file.append([executor('a', 1)], []);
  file.close();
  appendFileSync(file.journalPath, '{"g":1,"put":{"executorKey":"b","tas');
  t.same(keysAndPids(file), [['a', 1]]);
});

t.test('a new snapshot empties the journal; lines of an older generation never apply to it', async (t) => {
  const file = fresh(t);
  file.save({ version: 1, frameworkId: 'fw', executors: [] });
  file.append([executor('a', 1)], []);
  const oldJournal = readFileSync(file.journalPath, 'utf8');
  file.save({ version: 1, frameworkId: 'fw', executors: [] });
  t.equal(statSync(file.journalPath).size, 0, 'emptied');
  // A crash between the snapshot's rename and the journal's truncation leaves the old lines behind.
  writeFileSync(file.journalPath, oldJournal);
  t.same(keysAndPids(file), [], 'the removed executor does not come back');
  file.close();
});

t.test('a snapshot written by the previous format (no generation) loads', async (t) => {
  const file = fresh(t);
  writeFileSync(file.path, JSON.stringify({ version: 1, frameworkId: 'fw', executors: [executor('a', 7)] }));
  t.same(keysAndPids(file), [['a', 7]]);
});

t.test('a snapshot that cannot be read is set aside with its journal, said so, and the load starts from nothing (issue 11)', async (t) => {
  const whole = `${JSON.stringify({ version: 1, frameworkId: 'fw', executors: [executor('a', 7)], generation: 3 })}\n`;
  const cases: { name: string; text: string; reason: RegExp }[] = [
    { name: 'empty (a power loss after the rename)', text: '', reason: /it is empty/ },
    { name: 'cut short', text: whole.slice(0, 40), reason: /it is not JSON/ },
    { name: 'null', text: 'null', reason: /not a local cluster state file of version 1/ },
    { name: 'another version', text: JSON.stringify({ version: 2 }), reason: /not a local cluster state file of version 1/ },
    { name: 'executors not a list', text: JSON.stringify({ version: 1, frameworkId: 'fw', executors: 5 }), reason: /not a local cluster state file of version 1/ },
  ];
  for (const c of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'pacer-state-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const lines: string[] = [];
    const file = new StateFile(join(dir, 'local-cluster.json'), (line) => void lines.push(line));
    writeFileSync(file.path, c.text);
    writeFileSync(file.journalPath, `${JSON.stringify({ g: 3, put: executorToStored(executor('b', 8)) })}\n`);
    t.equal(file.load(), undefined, `${c.name}: nothing loaded`);
    t.ok(file.lostSnapshot, `${c.name}: the snapshot is said lost`);
    t.equal(readFileSync(`${file.path}.damaged`, 'utf8'), c.text, `${c.name}: kept as it was`);
    t.ok(statSync(`${file.journalPath}.damaged`).isFile(), `${c.name}: its journal set aside too`);
    t.match(lines, [c.reason], `${c.name}: one line says why`);
    file.save({ version: 1, frameworkId: 'fw2', executors: [executor('c', 9)] });
    t.same(keysAndPids(file), [['c', 9]], `${c.name}: the next snapshot is written and loads`);
  }
});

t.test('a second and later unreadable snapshot is kept beside the first, never over it, up to DAMAGED_COPIES_MAX', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const file = new StateFile(join(dir, 'local-cluster.json'), (line) => void lines.push(line));
  const suffixes = Array.from({ length: DAMAGED_COPIES_MAX }, (_, i) => (i === 0 ? '.damaged' : `.damaged.${i}`));
  for (let i = 0; i < DAMAGED_COPIES_MAX + 2; i++) {
    writeFileSync(file.path, `cut ${i}`);
    writeFileSync(file.journalPath, `journal ${i}\n`);
    t.equal(file.load(), undefined, `incident ${i}: nothing loaded`);
  }
  suffixes.forEach((suffix, i) => {
    const last = i === DAMAGED_COPIES_MAX - 1;
    // The last slot holds the latest incident once all are taken; the earlier ones stay as they were.
    const n = last ? DAMAGED_COPIES_MAX + 1 : i;
    t.equal(readFileSync(`${file.path}${suffix}`, 'utf8'), `cut ${n}`, `${suffix}: incident ${n}`);
    t.equal(readFileSync(`${file.journalPath}${suffix}`, 'utf8'), `journal ${n}\n`, `${suffix}: its journal`);
  });
  t.match(lines[1], /now .*local-cluster\.json\.damaged\.1\)/, 'the line names where it went');
});

t.test('append answers true once the journal outgrows max(1 MiB, twice the snapshot)', async (t) => {
  const file = fresh(t);
  const big = executor('a', 1, 'x'.repeat(64 * 1024));
  const lineBytes = JSON.stringify({ g: 2, put: big }).length + 1;
  /** How many appends of `big` it takes to answer true. */
  const appendsUntilTrue = (): number => {
    for (let n = 1; n < 1000; n++) if (file.append([big], [])) return n;
    return -1;
  };
  file.save({ version: 1, frameworkId: 'fw', executors: [] });
  t.equal(appendsUntilTrue(), Math.floor((1 << 20) / lineBytes) + 1, 'past 1 MiB with a small snapshot');
  const executors = Array.from({ length: 40 }, (_, i) => executor(`e${i}`, i, 'x'.repeat(64 * 1024)));
  file.save({ version: 1, frameworkId: 'fw', executors });
  const snapshotBytes = statSync(file.path).size;
  t.ok(snapshotBytes > 1 << 21, 'a snapshot over 2 MiB');
  t.equal(appendsUntilTrue(), Math.floor((2 * snapshotBytes) / lineBytes) + 1, 'past twice the snapshot with a big one');
  file.close();
});

t.test('records are written in their stored form and read back as they were (StoredExecutorV1)', async (t) => {
  const file = fresh(t);
  const full: ExecutorRecord = {
    ...executor('a', 7), killDeadlineMs: 99, group: true,
    allocation: [{ reservedFor: 'r', cpusMilli: 1, memMilli: 2, diskMilli: 3, gpus: 0, ports: [[31_000, 31_002]] }],
  };
  full.tasks[0].healthy = true;
  full.tasks[0].startTime = '123';
  file.save({ version: 1, frameworkId: 'fw', executors: [full] });
  file.append([executor('b', 3)], []);
  file.close();
  t.same(new StateFile(file.path).load()?.executors, [full, executor('b', 3)]);
});

t.test('a task\'s check and its last check status are stored and read back; a malformed one is set aside', async (t) => {
  const checks: [string, NonNullable<ExecutorRecord['tasks'][0]['check']>, ExecutorRecord['tasks'][0]['checkStatus']][] = [
    ['http with path and container port', { kind: 'http', port: 31_000, containerPort: 80, path: '/ok', delayMs: 0, intervalMs: 1000, timeoutMs: 500 }, { http: { statusCode: 200 } }],
    ['tcp, no status yet', { kind: 'tcp', port: 31_001, delayMs: 15_000, intervalMs: 60_000, timeoutMs: 20_000 }, undefined],
    ['a shell command', { kind: 'command', command: { shell: 'true' }, delayMs: 0, intervalMs: 1000, timeoutMs: 0 }, { command: { exitCode: 0 } }],
    ['an argv command, no result', { kind: 'command', command: { argv: ['/bin/true'] }, delayMs: 0, intervalMs: 1000, timeoutMs: 0 }, { command: {} }],
  ];
  for (const [name, check, checkStatus] of checks) {
    const file = fresh(t);
    const record = executor('a', 7);
    record.tasks[0] = { ...record.tasks[0], check, ...(checkStatus === undefined ? {} : { checkStatus }) };
    file.save({ version: 1, frameworkId: 'fw', executors: [record] });
    file.close();
    t.same(new StateFile(file.path).load()?.executors, [record], name);
  }
  const file = fresh(t);
  const bad = executor('bad', 7);
  file.save({ version: 1, frameworkId: 'fw', executors: [executor('a', 1)] });
  file.close();
  const snapshot = JSON.parse(readFileSync(file.path, 'utf8')) as { executors: unknown[] };
  snapshot.executors.push({ ...executorToStored(bad), tasks: [{ ...executorToStored(bad).tasks[0], check: { kind: 'udp', delayMs: 0, intervalMs: 1, timeoutMs: 1 } }] });
  writeFileSync(file.path, JSON.stringify(snapshot));
  t.same(new StateFile(file.path, () => undefined).load()?.executors.map((e) => e.executorKey), ['a'], 'a check of no known kind fails the schema');
});

t.test('an executor record that fails its schema is set aside (kept with why, reported) and the rest loads (issue 11)', async (t) => {
  const file = fresh(t);
  file.save({ version: 1, frameworkId: 'fw', executors: [executor('a', 1)] });
  file.close();
  const snapshot = JSON.parse(readFileSync(file.path, 'utf8')) as { executors: unknown[] };
  snapshot.executors.push({ executorKey: 'bad-snapshot', tasks: 'none' });
  writeFileSync(file.path, JSON.stringify(snapshot));
  appendFileSync(file.journalPath, `${JSON.stringify({ g: 1, put: { ...executor('bad-journal', 2), agentId: 7 } })}\n${JSON.stringify({ g: 1, put: executor('c', 3) })}\n`);
  const lines: string[] = [];
  const loaded = new StateFile(file.path, (line) => lines.push(line)).load();
  t.same(loaded?.executors.map((e) => e.executorKey), ['a', 'c'], 'the good records, the journal after the bad line included');
  t.match(lines, [
    /^local cluster: stored executor bad-snapshot set aside, not loaded: does not match StoredExecutorV1: must have required property/,
    /^local cluster: stored executor bad-journal set aside, not loaded: does not match StoredExecutorV1: \/agentId must be string/,
  ]);
  const kept = readFileSync(`${file.path}.set-aside`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { record: { executorKey: string } });
  t.same(kept.map((k) => k.record.executorKey), ['bad-snapshot', 'bad-journal'], 'kept as stored');
});

/** A dynamic reservation of the master model with one volume (`volumes` = 0: none). */
function reservation(id: string, volumes = 1): MasterReservation {
  return {
    agentId: 'agent-1', role: 'db', reservationId: id,
    capacity: { reservedFor: 'db', reservationId: id, cpusMilli: 100, memMilli: 16_000, diskMilli: 10_000, gpus: 0, ports: [[31_000, 31_001]] },
    volumes: Array.from({ length: volumes }, (_, i) => ({ persistenceId: `${id}#vol${i}`, containerPath: `data${i}`, diskMilli: 10_000 })),
  };
}

/** The stored form of a reservation, as the file holds it. */
const storedForm = (id: string): Record<string, unknown> => ({
  v: 1, agentId: 'agent-1', role: 'db', reservationId: id,
  resources: { cpusMilli: 100, memMilli: 16_000, diskMilli: 10_000, gpus: 0 }, ports: [[31_000, 31_001]],
  volumes: [{ persistenceId: `${id}#vol0`, containerPath: 'data0', diskMilli: 10_000 }],
});

t.test('dynamic reservations with their volumes are recorded and read back (StoredLocalReservationV1)', async (t) => {
  const cases: {
    readonly name: string;
    /** Writes the file (snapshot, journal) by the StateFile or by hand. */
    readonly write: (file: StateFile) => void;
    readonly reservations: readonly MasterReservation[] | undefined;
    /** Warnings expected, in order. */
    readonly warnings?: readonly RegExp[];
  }[] = [
    {
      name: 'in the snapshot',
      write: (file) => file.save({ version: 1, frameworkId: 'fw', executors: [], reservations: [reservation('a'), reservation('b', 0)] }),
      reservations: [reservation('a'), reservation('b', 0)],
    },
    {
      name: 'changed and unreserved through the journal, in order',
      write: (file) => {
        file.save({ version: 1, frameworkId: 'fw', executors: [], reservations: [reservation('a', 0), reservation('b')] });
        file.append([], [], { put: [reservation('a'), reservation('c')], del: [] });
        file.append([], [], { put: [], del: ['agent-1 role:db#b'] });
      },
      reservations: [reservation('a'), reservation('c')],
    },
    {
      name: 'an old file without the field: reservations unknown (LocalCluster.start takes the store\'s), its executors as before',
      write: (file) => writeFileSync(file.path, JSON.stringify({ version: 1, frameworkId: 'fw', executors: [executorToStored(executor('a', 7))], generation: 1 })),
      reservations: undefined,
    },
    {
      name: 'a file without the field whose journal records a reservation: recorded',
      write: (file) => {
        writeFileSync(file.path, JSON.stringify({ version: 1, frameworkId: 'fw', executors: [], generation: 1 }));
        file.load();
        file.append([], [], { put: [reservation('a')], del: [] });
      },
      reservations: [reservation('a')],
    },
    {
      name: 'a corrupt entry (snapshot or journal) is set aside with a warning, the rest loads',
      write: (file) => {
        writeFileSync(file.path, JSON.stringify({
          version: 1, frameworkId: 'fw', executors: [], generation: 1,
          reservations: [storedForm('a'), { ...storedForm('bad-role'), role: '*' }, { ...storedForm('bad-version'), v: 2 }],
        }));
        writeFileSync(file.journalPath, [
          { g: 1, rput: { ...storedForm('bad-port'), ports: [[70_000, 70_001]] } },
          { g: 1, rput: { ...storedForm('bad-field'), labels: {} } },
          { g: 1, rput: storedForm('c') },
        ].map((l) => `${JSON.stringify(l)}\n`).join(''));
      },
      reservations: [reservation('a'), reservation('c')],
      warnings: [
        /^local cluster: stored reservation bad-role \(agent agent-1, role \*\) set aside, not loaded: does not match StoredLocalReservationV1: \/role must NOT be valid/,
        /^local cluster: stored reservation bad-version .* \/v must be equal to constant/,
        /^local cluster: stored reservation bad-port .* \/ports\/0\/0 must be <= 65535/,
        /^local cluster: stored reservation bad-field .* must NOT have additional properties/,
      ],
    },
    {
      name: 'a reservation list that is not a list is set aside whole',
      write: (file) => writeFileSync(file.path, JSON.stringify({ version: 1, frameworkId: 'fw', executors: [], reservations: { a: 1 } })),
      reservations: [],
      warnings: [/^local cluster: stored reservation list the snapshot's reservations set aside, not loaded: not a list/],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const file = fresh(t);
      c.write(file);
      file.close();
      const warnings: string[] = [];
      const loaded = new StateFile(file.path, (line) => warnings.push(line)).load();
      t.same(loaded?.reservations, c.reservations);
      t.equal(warnings.length, c.warnings?.length ?? 0, warnings.join('\n'));
      t.match(warnings, c.warnings ?? []);
      if (c.warnings !== undefined) {
        const kept = readFileSync(`${file.path}.set-aside`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
        t.ok(kept.every((k) => k.kind === 'reservation' || k.kind === 'reservations'), 'kept as stored, with their kind');
      }
      if (c.name.startsWith('an old file')) t.same(loaded?.executors, [executor('a', 7)]);
    });
  }
});

t.test('an executor on a dynamic reservation keeps its reservation id and volumes', async (t) => {
  const file = fresh(t);
  const onReservation: ExecutorRecord = { ...executor('a', 7), allocation: [{ ...reservation('r').capacity, volumes: reservation('r').volumes }] };
  file.save({ version: 1, frameworkId: 'fw', executors: [onReservation] });
  file.close();
  t.same(new StateFile(file.path).load()?.executors, [onReservation]);
});
