import t from 'tap';
import { buildUi } from '../../ui/build';
import { openAuth } from '../api/auth/auth-kit';
import { serveWithAuth } from '../api/auth/served-api';
import { chromiumSkip, openBrowserPage } from '../harness/chromium';

/**
 * The web UI opened with the credentials in its URL (`http://user:password@host/ui/`), as an
 * operator may bookmark it: its requests are made on the page's origin (ui/src/api/api-url.ts), so
 * the browser, which refuses a relative request against a base URL with credentials, makes them
 * and sends the credentials it was given. Before, every read failed and the header said "pacer
 * unreachable" (an operator's trial, 2026-12-02).
 */
t.test('the UI at http://user:password@host/ui/ reads the API', { skip: chromiumSkip() }, async (t) => {
  await buildUi();
  const address = await serveWithAuth(t, openAuth({ httpCredentials: 'admin:s3cret' }));
  const { page, pageErrors } = await openBrowserPage(t, { width: 1280, height: 800 });
  const failed: string[] = [];
  page.on('requestfailed', (r) => void failed.push(`${r.url()}: ${r.failure()?.errorText ?? ''}`));
  page.on('console', (m) => { if (m.type() === 'error') failed.push(m.text()); });
  await page.goto(`http://admin:s3cret@${address}/ui/`);
  const header = page.locator('header .cluster');
  await header.filter({ hasText: /\S/ }).waitFor();
  t.match(await header.innerText(), /cluster · v/, 'the header shows /v2/info\'s answer');
  t.notMatch(await header.innerText(), /unreachable/);
  t.same(pageErrors, [], 'no script error');
  t.same(failed.filter((f) => /credentials|401/.test(f)), [], 'no request refused for its URL or credentials');
});
