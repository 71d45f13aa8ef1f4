import t from 'tap';
import { BenchCluster, TASK_CHECK_EVERY } from '../../bench/lib/bench-cluster';
import { SHAPE } from '../../bench/match';
import type { LaunchOperation } from '../../src/scheduler/model/launch';
import { makeTaskLaunch } from '../builders/launch-builders';

/**
 * bench:match's cluster books every accept's allocation but reads the resolved task of only one
 * launch in TASK_CHECK_EVERY (the core builds it when a driver first reads it): that one is
 * checked, and a wrong one is reported (bench:match then fails naming it).
 */

const TINY = { ...SHAPE, agents: 2, racks: 2, reservedEvery: 0 };

function launches(cluster: BenchCluster, hostname: (i: number) => string): void {
  for (let i = 0; i < TASK_CHECK_EVERY; i++) {
    const offer = cluster.offerAll()[0];
    const port = 31_000 + i;
    const env = { HOST: hostname(i), PORT0: String(port), MARATHON_APP_ID: '/app' };
    const task = makeTaskLaunch({ taskId: `t${i}`, agentId: offer.agent.agentId, hostname: offer.agent.hostname, hostPorts: [port], env });
    const pool = { cpusMilli: 1, memMilli: 1, diskMilli: 0, gpus: 0, ports: [[port, port] as const] };
    const op: LaunchOperation = { kind: 'launch', task, allocation: [pool] };
    cluster.accept(offer.offerId, [op]);
  }
}

t.test('one launch in TASK_CHECK_EVERY is read; a right one passes, a wrong HOST is reported', async (t) => {
  const right = new BenchCluster(TINY);
  launches(right, () => 'host-0.bench');
  t.equal(right.checkedTasks, 1, 'one of them read');
  t.strictSame(right.taskProblems, [], 'nothing wrong');

  const wrong = new BenchCluster(TINY);
  launches(wrong, () => 'elsewhere');
  t.equal(wrong.checkedTasks, 1);
  t.match(wrong.taskProblems, [/HOST=elsewhere/], 'the wrong environment is named');
});
