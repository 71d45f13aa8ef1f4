import t from 'tap';
import { chromiumSkip } from '../harness/chromium';
import { PATIENCE_MS, waitFor } from '../harness/wait';
import { openSeededUi } from './seeded-ui';

/**
 * The apps page in headless Chromium reads `/v2/queue` once per poll interval, not once for the
 * header and once more for the page (ui/src/api/shared-polls.ts). Found in a browser trial.
 */
t.test('the apps page and the header share one /v2/queue poll', { skip: chromiumSkip() }, async (t) => {
  const { page, pageErrors, origin } = await openSeededUi(t, { width: 1280, height: 800 });
  const reads = new Map<string, number>();
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (req.method() !== 'GET' || !url.pathname.startsWith('/v2/')) return;
    const key = `${url.pathname}${url.search}`;
    reads.set(key, (reads.get(key) ?? 0) + 1);
  });
  await page.goto(`${origin}/ui/`);
  await page.locator('tr[data-id="/web"]').first().waitFor();
  // The header's /v2/deployments poll runs on the same 2 s interval: wait for four of its reads
  // (about 6 s; bounded generously), then compare.
  await waitFor(() => (reads.get('/v2/deployments') ?? 0) >= 4, 'four reads of /v2/deployments', PATIENCE_MS);
  const queue = reads.get('/v2/queue') ?? 0;
  const deployments = reads.get('/v2/deployments') ?? 0;
  t.ok(queue >= 1, `/v2/queue read (${queue} times)`);
  t.ok(queue <= deployments + 1, `/v2/queue read ${queue} times while /v2/deployments was read ${deployments} times: one poll, not two`);
  t.same(pageErrors, [], 'no script error on the page');
});
