import { existsSync } from 'node:fs';
import t from 'tap';
import type { LaunchOperation } from '../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../src/scheduler/model/offer';
import type { PersistentVolume, ReservationOperation } from '../../../src/scheduler/model/reservation';
import { volumeDir } from '../../../src/cluster/local/volume-dirs';
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, makeFixture, type LocalFixture } from './local-fixture';
import { PATIENCE_MS } from '../../harness/wait';

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

/**
 * The next offer holding the reservation; offers without it (e.g. one made while the task ran) are
 * declined. Rejects when none comes within `timeoutMs`.
 */
async function reservationOffer(f: LocalFixture, timeoutMs = PATIENCE_MS): Promise<{ offer: Offer; pool: OfferedPool }> {
  const deadline = Date.now() + timeoutMs;
  const outstanding = f.offers().at(-1);
  if (outstanding !== undefined) f.cluster.decline([outstanding.offerId], 0);
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no offer of reservation ${INSTANCE} within ${timeoutMs} ms`);
    const offer = await f.nextOffer(undefined, undefined, left);
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

/*
 * The reservation and its volume survive a restart of the cluster (pacer's restart: the state
 * file, not the process, carries them), as a Mesos agent's checkpointed reservations survive a
 * master failover: the restarted cluster offers the reservation with its volume before anything
 * else happens, a relaunch on it finds the volume's data, and DESTROY and UNRESERVE after the
 * restart release it for good (also across the next restart).
 */
t.test('a reservation and its volume are offered again by the cluster restarted on its state file', async (t) => {
  const cases: { readonly name: string; readonly firstCmd: string; readonly beforeRestart: 'TASK_RUNNING' | 'TASK_FINISHED' }[] = [
    { name: 'stopped after the task ended', firstCmd: 'echo first-run >> data/log', beforeRestart: 'TASK_FINISHED' },
    { name: 'stopped while the task runs (adopted, then killed)', firstCmd: 'echo first-run >> data/log; exec sleep 600', beforeRestart: 'TASK_RUNNING' },
  ];
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const f = makeFixture(t);
      const offer = await f.startAndOffer();
      const agentId = offer.agent.agentId;
      const reservedAmounts = { cpusMilli: 100, memMilli: 16_000, diskMilli: 10_000, gpus: 0, ports: [] };
      const reserved: OfferedPool = { ...reservedAmounts, reservedFor: 'db', reservationId: INSTANCE };
      f.cluster.accept(offer.offerId, [
        { kind: 'reserve', agentId, reservationId: INSTANCE, role: 'db', allocation: [reservedAmounts] },
        { kind: 'create', agentId, reservationId: INSTANCE, role: 'db', volumes: [VOLUME] },
        launchOnReservation(offer, c.firstCmd, 1, reserved),
      ], 0);
      await f.waitStatus(`${INSTANCE}._app.1`, c.beforeRestart);
      const dir = volumeDir(f.options.sandboxRoot, agentId, VOLUME.persistenceId);

      f.cluster.stop();
      f.cluster = f.newCluster();
      const seen = f.offers().length;
      f.cluster.start();
      const first = await f.nextOffer(seen);
      if (c.beforeRestart === 'TASK_RUNNING') {
        t.notOk(first.pools.some((p) => p.reservationId === INSTANCE && p.cpusMilli > 0), 'the adopted task holds its reservation: none of it is offered');
        f.cluster.kill(`${INSTANCE}._app.1`, agentId, 0);
        await f.waitStatus(`${INSTANCE}._app.1`, 'TASK_KILLED');
      } else {
        t.match(first.pools.find((p) => p.reservationId === INSTANCE), { reservedFor: 'db', volumes: [VOLUME], cpusMilli: 100 }, 'the first offer after the restart holds the reservation');
      }
      const back = await reservationOffer(f);
      t.match(back.pool, { reservedFor: 'db', reservationId: INSTANCE, volumes: [VOLUME], cpusMilli: 100, memMilli: 16_000, diskMilli: 10_000 }, 'offered back with its volume');
      f.cluster.accept(back.offer.offerId, [launchOnReservation(back.offer, 'cat data/log > seen; echo second-run >> data/log', 2, reserved)], 0);
      await f.waitStatus(`${INSTANCE}._app.2`, 'TASK_FINISHED');
      t.equal((await f.sandboxFile(`${INSTANCE}._app.2`, 'seen')).trim(), 'first-run', 'the relaunch after the restart found the volume\'s data');

      const last = await reservationOffer(f);
      f.cluster.accept(last.offer.offerId, [
        { kind: 'destroy', agentId, reservationId: INSTANCE, role: 'db', volumes: [VOLUME] },
        { kind: 'unreserve', agentId, reservationId: INSTANCE, role: 'db', allocation: [reserved] },
      ], 0);
      t.notOk(existsSync(dir), 'DESTROY after the restart removed the directory');
      // UNRESERVE is on record: the next restart offers the agent whole, with no reservation.
      f.cluster.stop();
      f.cluster = f.newCluster();
      const again = await f.startAndOffer();
      t.notOk(again.pools.some((p) => p.reservationId !== undefined), 'no reservation after the next restart');
      t.equal(again.pools.find((p) => p.reservedFor === undefined)?.cpusMilli, offer.pools.find((p) => p.reservedFor === undefined)?.cpusMilli, 'the unreserved pool is whole again');
    });
  }
});
