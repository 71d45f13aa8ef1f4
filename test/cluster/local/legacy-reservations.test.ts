import t from 'tap';
import type { ExecutorRecord } from '../../../src/cluster/local/executor-record';
import { fillLegacyReservations } from '../../../src/cluster/local/legacy-reservations';
import type { MasterReservation } from '../../../src/master/master';
import type { OfferedPool } from '../../../src/scheduler/model/offer';

/*
 * A state file written before reservations were recorded (before 2026-11-30) gets the store's:
 * each is restored, and the pool its running task took (reserved for the role, but without the
 * reservation id and volumes that such a file did not keep) is booked on it again. The end-to-end
 * upgrade is test/e2e/local-resident-upgrade.test.ts.
 */

const volumes = [{ persistenceId: 'db.i1#vol0', containerPath: 'data', diskMilli: 1000 }];
const reservation: MasterReservation = {
  agentId: 'agent-1', role: 'res', reservationId: 'db.i1',
  capacity: { reservedFor: 'res', reservationId: 'db.i1', volumes, cpusMilli: 10, memMilli: 2000, diskMilli: 1000, gpus: 0, ports: [] },
  volumes,
};
const legacyPool: OfferedPool = { reservedFor: 'res', cpusMilli: 10, memMilli: 2000, diskMilli: 1000, gpus: 0, ports: [] };

function executor(agentId: string, instanceId: string, allocation: readonly OfferedPool[]): ExecutorRecord {
  return {
    executorKey: `${instanceId}._app.1`, executorId: `${instanceId}._app.1`, agentId, group: false, allocation,
    tasks: [{
      taskId: `${instanceId}._app.1`, runSpecId: '/db', instanceId, sandbox: `/tmp/sb/${instanceId}`, hostPorts: [], killGracePeriodMs: 3000,
      resources: { cpusMilli: 10, memMilli: 2000, diskMilli: 0, gpus: 0 }, launchedAtMs: 1, env: {}, state: 'TASK_RUNNING',
    }],
  };
}

const cases: { name: string; record: ExecutorRecord; allocation: readonly OfferedPool[] }[] = [
  { name: 'its instance\'s pool on its agent and role: booked on the reservation', record: executor('agent-1', 'db.i1', [legacyPool]),
    allocation: [{ ...legacyPool, reservationId: 'db.i1', volumes }] },
  { name: 'another agent: unchanged', record: executor('agent-2', 'db.i1', [legacyPool]), allocation: [legacyPool] },
  { name: 'another instance: unchanged', record: executor('agent-1', 'db.i2', [legacyPool]), allocation: [legacyPool] },
  { name: 'a pool of another role: unchanged', record: executor('agent-1', 'db.i1', [{ ...legacyPool, reservedFor: 'other' }]),
    allocation: [{ ...legacyPool, reservedFor: 'other' }] },
  { name: 'an unreserved pool: unchanged', record: executor('agent-1', 'db.i1', [{ ...legacyPool, reservedFor: undefined }]),
    allocation: [{ ...legacyPool, reservedFor: undefined }] },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const before = JSON.stringify(c.record);
    const filled = fillLegacyReservations([reservation], [c.record]);
    t.same(filled.reservations, [reservation], 'the store\'s reservations are restored');
    t.same(filled.executors[0].allocation, c.allocation);
    t.equal(JSON.stringify(c.record), before, 'the record given is not changed');
  });
}
