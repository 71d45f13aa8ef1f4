import t from 'tap';
import { runFailoverBench } from '../../bench/failover';
import { ZOOKEEPER_MISSING } from '../harness/zookeeper-server';

// bench:failover at its smallest (one failover), so that it cannot rot; in a file of its own, since
// it starts a ZooKeeper and four pacer processes (test/bench/smoke.test.ts runs the others). No
// timing is asserted: figures are the benchmark's job (bench/README.md).

t.test('bench:failover: one failover of three pacer processes on a ZooKeeper it starts, checked', { skip: ZOOKEEPER_MISSING }, async (t) => {
  const r = await runFailoverBench({ failovers: 1, sessionTimeoutMs: 3000, timeoutMs: 120_000 });
  t.strictSame(r.problems, [], 'it did all of its work');
  t.equal(r.completed, 1);
  t.ok(r.failoverMs[0] !== undefined && r.failoverMs[0] > 0, 'a failover time reported');
});
