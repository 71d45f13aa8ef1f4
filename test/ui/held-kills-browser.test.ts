import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildUi } from '../../ui/build';
import { makeApi } from '../api/api-fixture';
import { chromiumSkip, openBrowserPage } from '../harness/chromium';
import { confirmKills, healthyApp, nextRound } from '../harness/health-storm';

/**
 * The queue page in headless Chromium shows the unhealthy kills a kill-storm floor holds back
 * (issue 18): over the API fixture, whose core stands still in manual time, so the storm stays on
 * for as long as the browser needs.
 */

t.test('the queue page shows held unhealthy kills, why, and in which order they go', { skip: chromiumSkip() }, async (t) => {
  await buildUi();
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const ids = healthyApp(fx.harness, 4);
  nextRound(fx.harness, ids, 500);
  confirmKills(fx.harness);
  await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = fx.app.server.address() as AddressInfo;
  const { page, pageErrors } = await openBrowserPage(t, { width: 1280, height: 800 });
  await page.goto(`http://127.0.0.1:${port}/ui/queue`);

  const card = page.locator('[data-testid="held-kills"] [data-held-id="/storm"]');
  await card.waitFor();
  t.equal(await card.locator('[data-testid="held-kills-headline"]').innerText(), '3 unhealthy kills held: 3 of 4 instances kept running (floor 3)');
  t.match(await card.locator('[data-testid="held-kills-message"]').innerText(), /kill-storm floor from upgradeStrategy\.minimumHealthCapacity 1/);
  const rows = card.locator('tbody tr');
  t.equal(await rows.count(), 3);
  for (let i = 0; i < 3; i++) t.match(await rows.nth(i).innerText(), new RegExp(`^${i + 1}\\s+${ids[i + 1].replace('.', '\\.')}\\s+h0\\s+HTTP health check failed`), `row ${i + 1}: the kill due ${i + 1}${i === 0 ? 'st' : i === 1 ? 'nd' : 'rd'}`);
  await page.locator('.card[data-id="/storm"] [data-testid="queue-entry"]').waitFor();
  t.pass('the killed instance waits in the launch queue below it');
  t.same(pageErrors, [], 'no script error on the page');
});
