import t from 'tap';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses } from './pacer-kit';

/**
 * A forced update of an app whose instance was never placed (found with marathon-node over HTTPS:
 * `POST /v2/apps` with cpus 1000, then `PUT /v2/apps/<id>?force=true` `{"cpus":0.01}`): the
 * offers declined for the old definition are filtered for `--decline_offer_duration` (120 s), and
 * pacer did not revive for the new one, so the instance waited two minutes though it now fits.
 * Marathon schedules new instances for the new definition and revives: it starts at once.
 */
const cases = [
  { name: 'cpus shrunk by a forced PUT', first: { cpus: 1000, mem: 8 }, update: { cpus: 0.01 } },
  { name: 'mem shrunk by a forced PUT', first: { cpus: 0.01, mem: 10_000_000 }, update: { mem: 8 } },
];

for (const c of cases) {
  t.test(`an unplaced instance starts soon after a forced update makes it fit: ${c.name}`, async (t) => {
    const pacer = await startPacer(t, e2eConfig(tempDir(t)));
    const tasks = new TaskProcesses(t);
    const create = await pacer.request('POST', '/v2/apps', { id: '/big', cmd: 'sleep 600', instances: 1, ...c.first });
    t.equal(create.status, 201, JSON.stringify(create.json));
    // The first offer was declined for the old definition.
    await waitFor(async () => {
      const q = (await pacer.request('GET', '/v2/queue')).json as { queue?: { processedOffersSummary?: { unusedOffersCount?: number } }[] };
      return (q.queue?.[0]?.processedOffersSummary?.unusedOffersCount ?? 0) >= 1;
    }, 'an offer declined for the app');
    const put = await pacer.request('PUT', '/v2/apps/big?force=true', c.update);
    t.equal(put.status, 200, JSON.stringify(put.json));
    // Well below the 120 s decline filter: only a revive makes the agent offer again this soon.
    await waitFor(async () => {
      tasks.record(pacer.running);
      const app = (await pacer.request('GET', '/v2/apps/big')).json.app as { tasksRunning?: number } | undefined;
      return app?.tasksRunning === 1;
    }, 'the updated app running', 30_000);
    tasks.record(pacer.running);
    t.same((await pacer.request('GET', '/v2/deployments')).json, [], 'the deployment finished');
  });
}
