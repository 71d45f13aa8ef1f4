import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makeEndpoint, makeHealthCheck, makePod, versionAt } from '../../builders/run-spec-builders';
import { Harness } from '../../harness/core-harness';
import { rootWith } from '../../builders/group-builders';

/** An agent with a fault domain and attributes of every type, so instances carry all of them. */
function richOffer(hostname: string) {
  return makeOffer({
    agent: { hostname, region: 'eu', zone: 'eu-1', attributes: { rack: 'r1', generation: 3, disks: ['ssd', 'hdd'], ids: [[1, 5]] } },
  });
}


/**
 * A Harness whose store holds a bit of everything the core persists: a nested root group with
 * dependencies, an app with health checks and ports (running, one killed), a two-container pod
 * with endpoints (running), stored versions of both, root versions, a deployment still running
 * (an app too big for any offer) and instances in several conditions.
 */
export function populatedHarness(): Harness {
  const h = new Harness();
  const web = makeApp({
    id: '/prod/web', instances: 3, hostPorts: [0, 0], labels: { tier: 'front' }, env: { MODE: 'prod' },
    healthChecks: [makeHealthCheck({ protocol: 'TCP', gracePeriodMs: 0 })], args: ['--port', '$PORT0'], cmd: undefined,
  });
  h.put(web);
  h.run(h.offer(richOffer('host-1')));
  const pod = makePod({
    id: '/prod/db', instances: 2, version: versionAt(1),
    containers: [
      { name: 'db', endpoints: [makeEndpoint({ name: 'pg', hostPort: 0, containerPort: 5432 })], killGracePeriodMs: 10_000 },
      { name: 'sidecar', command: 'sleep 1' },
    ],
  });
  h.put(pod);
  h.run(h.offer(richOffer('host-2')));
  h.scale('/prod/web', 4);
  const victim = h.instances('/prod/web')[0];
  const killed = h.kill('/prod/web', [victim.instanceId], { force: true });
  if (!killed.ok) throw new Error(`kill refused: ${JSON.stringify(killed)}`);
  h.status(victim.tasks[0].taskId, 'TASK_KILLING', { message: 'shutting down' });
  const big = makeApp({ id: '/batch/big', cpus: 100, version: versionAt(3), dependencies: ['/prod/web'] });
  const small = makeApp({ id: '/batch/small', version: versionAt(3) });
  h.deployRoot(rootWith(h.scheduler.root(), versionAt(3), big, small));
  h.offer(richOffer('host-3'));
  return h;
}
