/**
 * Helper process for restart.test.ts (not a test): starts a local cluster on the directory given
 * as argument, launches one app task, prints its task id and pid, then exits without stopping
 * anything — as pacer does when it dies.
 */
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, fixtureOptions, LocalFixture } from './local-fixture';

async function main(): Promise<void> {
  const dir = process.argv[2];
  const f = new LocalFixture(dir, fixtureOptions(dir));
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'echo > ready; sleep 30', cpus: 1 }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(task.taskId, 'ready');
  process.stdout.write(`${JSON.stringify({ taskId: task.taskId, pid: f.cluster.tasks()[0].pid })}\n`);
  process.exit(0);
}

void main();
