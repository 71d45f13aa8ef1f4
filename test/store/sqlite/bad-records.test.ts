import { join } from 'node:path';
import type Database from 'better-sqlite3';
import seedrandom from 'seedrandom';
import t from 'tap';
import type { SetAsideRecord } from '../../../src/scheduler/ports/store';
import type { Scheduler } from '../../../src/scheduler/scheduler';
import type { SchedulerOptions } from '../../../src/scheduler/scheduler-options';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makePod, versionAt } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { launchedTasks, type RecordingDriver } from '../../harness/recording-driver';
import { storeCopy, tempDir, withRawDb, schedulerOnStore } from './store-fixture';

/**
 * Issue 11: no stored record, however bad, may stop pacer from starting. Bad records are written
 * straight into a SQLite store that a real core wrote; a new core must start on it, run what is
 * sound, and set aside (report, and move to the `set_aside` table) what is not.
 */

let starts = 0;

/** A real core whose Store port is the SQLite store at `path` (each start draws other ids, as a new process would). */
function coreOn(path: string, options: Partial<SchedulerOptions> = {}): { scheduler: Scheduler; store: SqliteStore; driver: RecordingDriver } {
  const store = SqliteStore.open(path);
  const { scheduler, driver } = schedulerOnStore(store, `bad-records-${++starts}`, () => START_MS + 60_000, undefined, options);
  return { scheduler, store, driver };
}

/**
 * A store a real core left: /prod/web (3 running instances), the pod /prod/db (running), and
 * /batch/big, which no offer fits (its deployment is still running), with versions and root versions.
 */
function healthyStore(dir: string): string {
  const path = join(dir, 'healthy.db');
  const first = coreOn(path);
  first.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/prod/web', instances: 3 }) });
  first.scheduler.handle({ type: 'putRunSpec', spec: makePod({ id: '/prod/db', version: versionAt(1) }) });
  first.scheduler.handle({ type: 'offers', offers: [makeOffer()] });
  for (const task of launchedTasks(first.driver.calls)) {
    for (const state of ['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING'] as const) {
      first.scheduler.handle({ type: 'status', status: { taskId: task.taskId, state, agentId: task.agentId } });
    }
  }
  first.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/batch/big', cpus: 100, version: versionAt(2) }) });
  first.store.close();
  return path;
}

/** The stored body of a row, as JSON (the codec's tags included). */
function bodyOf(db: Database.Database, sql: string, ...params: unknown[]): Record<string, unknown> {
  return JSON.parse((db.prepare(sql).get(...params) as { body: string }).body) as Record<string, unknown>;
}

interface Case {
  readonly name: string;
  readonly damage: (db: Database.Database) => void;
  /** `kind key` of every record expected to be set aside. */
  readonly setAside: readonly string[];
  /** Run specs the new core must run. */
  readonly running: readonly string[];
}

const ALL = ['/batch/big', '/prod/db', '/prod/web'];
const firstInstance = (db: Database.Database): string => (db.prepare("SELECT id FROM instances ORDER BY id LIMIT 1").get() as { id: string }).id;

/** The stored root (Marathon's group JSON) with /prod depending on /batch and /batch on /prod. */
function cyclicRoot(root: Record<string, unknown>): Record<string, unknown> {
  const groups = root.groups as Record<string, unknown>[];
  for (const g of groups) g.dependencies = [g.id === '/prod' ? '/batch' : '/prod'];
  return root;
}

const CASES: readonly Case[] = [
  {
    name: 'a run spec row that is not JSON (the root\'s copy runs instead)',
    damage: (db) => db.prepare('UPDATE run_specs SET body = ? WHERE id = ?').run('{not json', '/prod/web'),
    setAside: ['runSpec /prod/web'],
    running: ALL,
  },
  {
    name: 'a run spec row of the wrong shape (the root\'s copy runs instead)',
    damage: (db) => db.prepare('UPDATE run_specs SET body = ? WHERE id = ?').run('{"id":"/prod/web","kind":"app"}', '/prod/web'),
    setAside: ['runSpec /prod/web'],
    running: ALL,
  },
  {
    name: 'a run spec row stored under another id (its running deployment starts it again)',
    damage: (db) => db.prepare('UPDATE run_specs SET id = ? WHERE id = ?').run('/elsewhere', '/batch/big'),
    setAside: ['runSpec /elsewhere'],
    running: ALL,
  },
  {
    name: 'a root that does not decode (the newest root version replaces it)',
    damage: (db) => db.prepare('UPDATE root SET body = ?').run('{"$map":1}'),
    setAside: ['root /'],
    running: ALL,
  },
  {
    name: 'a root holding an app with 1e22 instances',
    damage: (db) => {
      const root = bodyOf(db, 'SELECT body FROM root');
      // The root is stored as Marathon's group JSON (src/store/run-spec-record.ts).
      const prod = (root.groups as Record<string, unknown>[]).find((g) => g.id === '/prod') as Record<string, unknown>;
      const web = (prod.apps as Record<string, unknown>[])[0];
      web.instances = 1e22;
      db.prepare('UPDATE root SET body = ?').run(JSON.stringify(root));
    },
    setAside: ['root /'],
    running: ALL,
  },
  {
    name: 'every root version and the root unsound: an empty root, run specs nobody manages set aside with their instances',
    damage: (db) => {
      db.prepare('UPDATE root SET body = ?').run('[]');
      db.prepare('UPDATE root_versions SET body = ?').run('7');
    },
    setAside: ['root /', 'rootVersion *', 'deployment *', 'runSpec /batch/big', 'runSpec /prod/db', 'runSpec /prod/web', 'instance *'],
    running: [],
  },
  {
    // Every change after such a start was refused ("Dependency graph has cyclic dependencies.",
    // new unrelated apps too): the root loaded as sound, and every root change is checked whole.
    name: 'a root whose groups depend on each other (the newest root version replaces it)',
    damage: (db) => db.prepare('UPDATE root SET body = ?').run(JSON.stringify(cyclicRoot(bodyOf(db, 'SELECT body FROM root')))),
    setAside: ['root /'],
    running: ALL,
  },
  {
    // It was loaded and run (its tasks launched) while the API, which reads the root, answered
    // 404 for it: nothing could scale or delete it.
    name: 'a run spec record that neither the root nor a running deployment names',
    damage: (db) => db.prepare("INSERT INTO run_specs (id, body) SELECT '/ghost/web', replace(body, '\"/prod/web\"', '\"/ghost/web\"') FROM run_specs WHERE id = '/prod/web'").run(),
    setAside: ['runSpec /ghost/web'],
    running: ALL,
  },
  {
    name: 'a run spec version and a root version that do not decode',
    damage: (db) => {
      db.prepare('UPDATE run_spec_versions SET body = ? WHERE run_spec_id = ?').run('nope', '/prod/db');
      db.prepare('UPDATE root_versions SET body = ? WHERE version = (SELECT min(version) FROM root_versions)').run('nope');
    },
    setAside: ['runSpecVersion /prod/db', 'rootVersion *'],
    running: ALL,
  },
  {
    name: 'an instance of the wrong shape and one that is not JSON',
    damage: (db) => {
      const id = firstInstance(db);
      const inst = bodyOf(db, 'SELECT body FROM instances WHERE id = ?', id);
      inst.condition = 'Bogus';
      db.prepare('UPDATE instances SET body = ? WHERE id = ?').run(JSON.stringify(inst), id);
      db.prepare("UPDATE instances SET body = 'x' WHERE id = (SELECT max(id) FROM instances)").run();
    },
    setAside: ['instance *'],
    running: ALL,
  },
  {
    name: 'a running deployment whose step index is beyond its plan',
    damage: (db) => {
      const row = db.prepare('SELECT id, body FROM deployments LIMIT 1').get() as { id: string; body: string };
      const d = JSON.parse(row.body) as Record<string, unknown>;
      d.stepIndex = 99;
      db.prepare('UPDATE deployments SET body = ? WHERE id = ?').run(JSON.stringify(d), row.id);
    },
    setAside: ['deployment *'],
    running: ALL,
  },
  {
    name: 'a body nested 100,000 deep',
    damage: (db) => db.prepare('UPDATE run_specs SET body = ? WHERE id = ?').run(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, '/prod/db'),
    setAside: ['runSpec /prod/db'],
    running: ALL,
  },
  {
    name: 'a framework id that is not text',
    damage: (db) => db.prepare("INSERT INTO framework (id, framework_id) VALUES (1, x'ff00') ON CONFLICT (id) DO UPDATE SET framework_id = x'ff00'").run(),
    setAside: ['frameworkId /'],
    running: ALL,
  },
];

/** Every record matches an expected `kind key` (`kind *`: any key), and every expected one is matched. */
function matches(records: readonly SetAsideRecord[], expected: readonly string[]): boolean {
  const got = records.map((r) => `${r.kind} ${r.key}`);
  const fits = (g: string, e: string): boolean => (e.endsWith(' *') ? g.startsWith(e.slice(0, -1)) : g === e);
  return got.every((g) => expected.some((e) => fits(g, e))) && expected.every((e) => got.some((g) => fits(g, e)));
}

const TABLES = ['root', 'run_specs', 'run_spec_versions', 'root_versions', 'deployments', 'instances'];

/** Replaces one value somewhere inside one stored row with junk; says where. */
function damageSomewhere(db: Database.Database, rng: () => number): string {
  const table = TABLES[Math.floor(rng() * TABLES.length)];
  const bodies = (db.prepare(`SELECT body FROM ${table}`).all() as { body: string }[]).map((r) => r.body);
  if (bodies.length === 0) return `${table}: empty`;
  const body = bodies[Math.floor(rng() * bodies.length)];
  const path: string[] = [];
  const damaged = damageTree(JSON.parse(body) as unknown, rng, path);
  db.prepare(`UPDATE ${table} SET body = ? WHERE body = ?`).run(JSON.stringify(damaged), body);
  return `${table} at ${path.join('.') || '(whole)'}`;
}

const JUNK: readonly unknown[] = [null, -1, 1e308, 4294967296, 0.5, '', 'x', true, [], {}, { $map: 1 }, { $num: 'NaN' }, [[[[]]]]];

function damageTree(value: unknown, rng: () => number, path: string[]): unknown {
  const children = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  if (children.length === 0 || rng() < 0.15) return JUNK[Math.floor(rng() * JUNK.length)];
  const key = children[Math.floor(rng() * children.length)];
  path.push(key);
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }) as Record<string, unknown>;
  if (rng() < 0.1 && !Array.isArray(value)) delete copy[key];
  else copy[key] = damageTree(copy[key], rng, path);
  return copy;
}

t.test('bad records are set aside and the rest runs', async (t) => {
  const healthy = healthyStore(tempDir(t));
  for (const c of CASES) {
    const path = storeCopy(t, healthy);
    withRawDb(path, c.damage);
    let core: ReturnType<typeof coreOn> | undefined;
    t.doesNotThrow(() => {
      core = coreOn(path);
    }, `${c.name}: the core starts`);
    if (core === undefined) continue;
    const records = core.scheduler.setAsideRecords();
    t.ok(matches(records, c.setAside), `${c.name}: set aside ${JSON.stringify(records.map((r) => `${r.kind} ${r.key}: ${r.reason}`))}`);
    t.same(core.scheduler.runSpecs().map((s) => s.id).sort(), c.running, `${c.name}: what runs`);
    if (c.running.includes('/prod/web')) {
      const running = core.scheduler.instances('/prod/web').filter((i) => i.condition === 'Running').length;
      t.ok(running >= 2, `${c.name}: /prod/web keeps its running instances (${running}: ${core.scheduler.instances('/prod/web').map((i) => i.condition).join(', ')})`);
    }
    t.equal(core.store.setAsideRows().length, records.filter((r) => r.reason !== '').length, `${c.name}: every record is kept in set_aside`);
    core.store.close();
    const again = coreOn(path);
    t.same(again.scheduler.setAsideRecords(), [], `${c.name}: the next start finds nothing more to set aside`);
    t.same(again.scheduler.runSpecs().map((s) => s.id).sort(), c.running, `${c.name}: and runs the same`);
    again.store.close();
  }
});

t.test('after a start on a root with a dependency cycle, changes are accepted again', async (t) => {
  const path = storeCopy(t, healthyStore(tempDir(t)));
  withRawDb(path, (db) => db.prepare('UPDATE root SET body = ?').run(JSON.stringify(cyclicRoot(bodyOf(db, 'SELECT body FROM root')))));
  const core = coreOn(path);
  core.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/other/app', instances: 0, version: versionAt(5) }) });
  t.ok(core.scheduler.runSpec('/other/app') !== undefined, 'a new app in another group is created');
  core.store.close();
});

t.test('issue 11: instances 4294967296 made the store unstartable ("Invalid array length"); now that app is set aside', async (t) => {
  const path = storeCopy(t, healthyStore(tempDir(t)));
  // A core without the bound on all instances (--max_total_instances), as pacer was then.
  const first = coreOn(path, { maxTotalInstances: Number.MAX_SAFE_INTEGER });
  // The record the issue describes, as the API stored it before its ranges. The core of then
  // failed on it after storing; one without today's bound on all instances creates instances 2,000
  // per input (issue 11 item 4) and takes it. Either way it is stored, and the next start must set it aside.
  first.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/big', instances: 4294967296, version: versionAt(3) }) });
  first.store.close();
  t.ok(withRawDb(path, (db) => db.prepare('SELECT 1 FROM run_specs WHERE id = ?').get('/big')) !== undefined, 'the bad app was stored');
  const second = coreOn(path);
  t.same(second.scheduler.runSpecs().map((s) => s.id).sort(), ALL, 'everything else runs');
  t.ok(second.scheduler.setAsideRecords().some((r) => r.kind === 'runSpec' && r.key === '/big' && /instances: 4294967296 is outside \[0, 100000\]/.test(r.reason)),
    JSON.stringify(second.scheduler.setAsideRecords()));
  t.equal(second.scheduler.runSpec('/big'), undefined);
  second.store.close();
});

t.test('seeded damage anywhere: the core always starts, and the start after it sets nothing more aside', async (t) => {
  const seed = process.env.PACER_STORE_FUZZ_SEED ?? 'store-damage-1';
  const rounds = Number(process.env.PACER_STORE_FUZZ_ROUNDS ?? 60);
  const rng = seedrandom(seed);
  const healthy = healthyStore(tempDir(t));
  for (let round = 0; round < rounds; round++) {
    const path = storeCopy(t, healthy);
    const what = withRawDb(path, (db) => damageSomewhere(db, rng));
    try {
      coreOn(path).store.close();
      const again = coreOn(path);
      const more = again.scheduler.setAsideRecords();
      again.store.close();
      if (more.length > 0) t.fail(`seed ${seed} round ${round} (${what}): a second start set aside ${JSON.stringify(more)}`);
    } catch (err) {
      t.fail(`seed ${seed} round ${round} (${what}): the core did not start: ${(err as Error).stack}`);
    }
  }
  t.pass(`${rounds} damaged stores started (seed ${seed})`);
});
