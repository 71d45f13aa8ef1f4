import t from 'tap';
import type { ClusterDriver } from '../../src/scheduler/ports/cluster-driver';
import type { OfferOperation } from '../../src/scheduler/model/launch';
import { loggingDriver } from '../../src/runtime/logging-driver';
import { captureLog } from '../harness/log-capture';

/**
 * `--log_level debug`'s record of every call on the cluster (src/runtime/logging-driver.ts): one
 * `debug` record per call, component `cluster`, ids and counts only; at `info` the driver itself.
 */

function recordingDriver(): { driver: ClusterDriver; calls: string[] } {
  const calls: string[] = [];
  const driver: ClusterDriver = {
    accept: (offerId) => void calls.push(`accept ${offerId}`),
    decline: (ids) => void calls.push(`decline ${ids.join(',')}`),
    kill: (taskId) => void calls.push(`kill ${taskId}`),
    acknowledge: (_a, taskId) => void calls.push(`acknowledge ${taskId}`),
    reconcile: (tasks) => void calls.push(`reconcile ${tasks.length}`),
    revive: (roles) => void calls.push(`revive ${roles.join(',')}`),
    suppress: (roles) => void calls.push(`suppress ${roles.join(',')}`),
    updateFrameworkRoles: (roles) => void calls.push(`roles ${roles.join(',')}`),
  };
  return { driver, calls };
}

const launch = { kind: 'launch', task: { taskId: 'web.instance-1._app.1', env: { SECRET: 'hunter2' } }, allocation: [] } as unknown as OfferOperation;
const reserve = { kind: 'reserve', agentId: 'a1', reservationId: 'db.instance-2', role: 'db', allocation: [] } as OfferOperation;

const rows: { name: string; call: (d: ClusterDriver) => void; passed: string; msg: string }[] = [
  { name: 'accept', call: (d) => d.accept('O-1', [reserve, launch], 5000), passed: 'accept O-1', msg: 'ACCEPT offer O-1: RESERVE db.instance-2, LAUNCH web.instance-1._app.1' },
  { name: 'decline', call: (d) => d.decline(['O-2', 'O-3'], 120_000), passed: 'decline O-2,O-3', msg: 'DECLINE 2 offer(s) for 120000 ms' },
  { name: 'kill', call: (d) => d.kill('t1', 'a1', 3000), passed: 'kill t1', msg: 'KILL t1 on a1 (grace 3000 ms)' },
  { name: 'acknowledge', call: (d) => d.acknowledge('a1', 't1', 'u-1'), passed: 'acknowledge t1', msg: 'ACKNOWLEDGE t1' },
  { name: 'reconcile', call: (d) => d.reconcile([]), passed: 'reconcile 0', msg: 'RECONCILE implicitly' },
  { name: 'revive', call: (d) => d.revive(['*', 'db']), passed: 'revive *,db', msg: 'REVIVE *, db' },
  { name: 'suppress', call: (d) => d.suppress(['db']), passed: 'suppress db', msg: 'SUPPRESS db' },
  { name: 'roles', call: (d) => d.updateFrameworkRoles?.(['*', 'db']), passed: 'roles *,db', msg: 'UPDATE_FRAMEWORK roles *, db' },
];

t.test('at debug: each call is passed on and written as one cluster record, without task contents', async (t) => {
  for (const row of rows) {
    const captured = captureLog('json', 'debug');
    const { driver, calls } = recordingDriver();
    row.call(loggingDriver(driver, captured.log));
    t.same(calls, [row.passed], `${row.name}: passed on`);
    const records = captured.records();
    t.equal(records.length, 1, `${row.name}: one record`);
    t.match(records[0], { level: 20, component: 'cluster', msg: row.msg }, `${row.name}: the record`);
    t.notMatch(captured.lines().join('\n'), /hunter2/, `${row.name}: no task environment`);
  }
});

t.test('at info (the default) and above: the driver itself, nothing written', async (t) => {
  for (const level of ['info', 'warn', 'off'] as const) {
    const captured = captureLog('json', level);
    const { driver } = recordingDriver();
    t.equal(loggingDriver(driver, captured.log), driver, `${level}: not wrapped`);
  }
  const trace = captureLog('json', 'trace');
  const { driver } = recordingDriver();
  t.not(loggingDriver(driver, trace.log), driver, 'trace (below debug) is wrapped too');
});

t.test('a driver without role changes stays without them', async (t) => {
  const { driver } = recordingDriver();
  const { updateFrameworkRoles: _dropped, ...withoutRoles } = driver;
  t.equal(loggingDriver(withoutRoles, captureLog('json', 'debug').log).updateFrameworkRoles, undefined);
});
