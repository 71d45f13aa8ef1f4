import { existsSync } from 'node:fs';
import t from 'tap';
import type { LaunchOperation } from '../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../src/scheduler/model/offer';
import type { PersistentVolume, ReservationOperation } from '../../../src/scheduler/model/reservation';
import { volumeDir } from '../../../src/cluster/local/volume-dirs';
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, makeFixture, type LocalFixture } from './local-fixture';

/*
 * A persistent volume on the local cluster is a directory of its own that survives the instance's
 * relaunches: a real process writes into it, its relaunch (a new task, a new sandbox, on the
 * reservation offered back) finds the file; DESTROY removes it.
 */

const INSTANCE = 'db.instance-1';
const VOLUME: PersistentVolume = { persistenceId: `${INSTANCE}#vol0`, containerPath: 'data', diskMilli: 10_000 };

/** The LAUNCH of `cmd` as incarnation `n` of the instance, on its reservation. */
function launchOnReservation(offer: Offer, cmd: string, n: number, reserved: OfferedPool): LaunchOperation {
  const app = makeApp({ id: '/db', role: 'db', cmd, cpus: 0.1, mem: 16, resident: true });
  const { task } = appLaunch(offer, app, `${INSTANCE}._app.${n}`);
  return { kind: 'launch', task: { ...task, role: 'db', persistentVolumes: [VOLUME] }, allocation: [reserved] };
}

/** The next offer holding the reservation; offers without it (e.g. one made while the task ran) are declined. */
async function reservationOffer(f: LocalFixture): Promise<{ offer: Offer; pool: OfferedPool }> {
  const outstanding = f.offers().at(-1);
  if (outstanding !== undefined) f.cluster.decline([outstanding.offerId], 0);
  for (;;) {
    const offer = await f.nextOffer();
    const pool = offer.pools.find((p) => p.reservationId === INSTANCE);
    if (pool !== undefined) return { offer, pool };
    f.cluster.decline([offer.offerId], 0);
  }
}

t.test('a process writes into its volume; the relaunch on the reservation finds the file; DESTROY removes it', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const reservedAmounts = { cpusMilli: 100, memMilli: 16_000, diskMilli: 10_000, gpus: 0, ports: [] };
  const reserve: ReservationOperation = { kind: 'reserve', agentId: offer.agent.agentId, reservationId: INSTANCE, role: 'db', allocation: [reservedAmounts] };
  const create: ReservationOperation = { kind: 'create', agentId: offer.agent.agentId, reservationId: INSTANCE, role: 'db', volumes: [VOLUME] };
  const reserved: OfferedPool = { ...reservedAmounts, reservedFor: 'db', reservationId: INSTANCE };
  const first = launchOnReservation(offer, 'echo first-run >> data/log', 1, reserved);
  f.cluster.accept(offer.offerId, [reserve, create, first], 0);
  await f.waitStatus(`${INSTANCE}._app.1`, 'TASK_FINISHED');
  const dir = volumeDir(f.options.sandboxRoot, offer.agent.agentId, VOLUME.persistenceId);
  t.ok(existsSync(dir), 'CREATE made the volume directory');

  const back = await reservationOffer(f);
  t.match(back.pool, { reservedFor: 'db', volumes: [VOLUME] }, 'the reservation is offered back with its volume');
  f.cluster.accept(back.offer.offerId, [launchOnReservation(back.offer, 'cat data/log > seen; echo second-run >> data/log', 2, reserved)], 0);
  await f.waitStatus(`${INSTANCE}._app.2`, 'TASK_FINISHED');
  t.equal((await f.sandboxFile(`${INSTANCE}._app.2`, 'seen')).trim(), 'first-run', 'the relaunch (a new sandbox) found the first run\'s file');

  const last = await reservationOffer(f);
  const unreserve: ReservationOperation = { kind: 'unreserve', agentId: offer.agent.agentId, reservationId: INSTANCE, role: 'db', allocation: [reserved] };
  f.cluster.accept(last.offer.offerId, [{ kind: 'destroy', agentId: offer.agent.agentId, reservationId: INSTANCE, role: 'db', volumes: [VOLUME] }, unreserve], 0);
  t.notOk(existsSync(dir), 'DESTROY removed the directory');
});
