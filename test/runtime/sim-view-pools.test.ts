import t from 'tap';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import { poolsJson } from '../../src/runtime/sim-view-source';

/*
 * The simulation view's pools (`GET /pacer/v1/sim`): each pool of an agent's capacity is shown
 * with its own usage. A resident instance's reservation is a pool of its role beside the role's
 * static reservation; the view had paired every pool with the first used pool of its role, so a
 * reservation showed the static pool's usage (and the static pool the reservation's).
 */

const pool = (reservedFor: string | undefined, reservationId: string | undefined, cpusMilli: number, ports: [number, number][] = []): OfferedPool => ({
  ...(reservedFor !== undefined ? { reservedFor } : {}), ...(reservationId !== undefined ? { reservationId } : {}),
  cpusMilli, memMilli: 0, diskMilli: 0, gpus: 0, ports,
});

t.test('each pool is shown with the usage of the same role and reservation id', async (t) => {
  const capacity = [pool(undefined, undefined, 4000, [[31000, 31099]]), pool('fz', undefined, 2000, [[32000, 32009]]), pool('fz', 'db.instance-1', 500, [[31004, 31004]])];
  const used = [pool('fz', 'db.instance-1', 500, [[31004, 31004]]), pool('fz', undefined, 250), pool(undefined, undefined, 1000, [[31000, 31001]])];
  t.same(poolsJson(capacity, used).map((p) => [p.role, p.reservationId, p.cpus, p.ports]), [
    ['*', undefined, { used: 1, total: 4 }, { used: 2, total: 100 }],
    ['fz', undefined, { used: 0.25, total: 2 }, { used: 0, total: 10 }],
    ['fz', 'db.instance-1', { used: 0.5, total: 0.5 }, { used: 1, total: 1 }],
  ]);
  t.same(poolsJson([pool('fz', 'db.instance-2', 500)], []).map((p) => p.cpus), [{ used: 0, total: 0.5 }], 'a reservation nothing uses');
});
