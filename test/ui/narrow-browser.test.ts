import t from 'tap';
import { chromiumSkip } from '../harness/chromium';
import { openSeededUi } from './seeded-ui';

/**
 * The UI in a narrow window (390 px, a phone or a terminal beside it), in headless Chromium over
 * the in-process API. Found in a browser trial: the header did not wrap and the tables widened the
 * page to about 630 px, past the dark header's background, so the Queue and Events tabs and the
 * cluster name were light grey on white, and the page scrolled sideways as a whole.
 */
t.test('a narrow window: the page is no wider than the window and every tab sits on the header', { skip: chromiumSkip() }, async (t) => {
  const { page, pageErrors, origin } = await openSeededUi(t, { width: 390, height: 800 });
  // Run in the page (this file has no DOM types): the page's and window's widths, and the tabs outside the header's box.
  const layout = `(() => {
    const header = document.querySelector('header.top').getBoundingClientRect();
    const outside = [...document.querySelectorAll('header.top .tab, header.top .cluster')]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.left < header.left || r.right > header.right || r.top < header.top || r.bottom > header.bottom; })
      .map((el) => el.textContent);
    return { page: document.documentElement.scrollWidth, window: innerWidth, outside };
  })()`;
  for (const [path, ready] of [['/ui/', 'tr[data-id="/web"]'], ['/ui/apps/web', 'tr[data-task]'], ['/ui/queue', 'h1']] as const) {
    await page.goto(`${origin}${path}`);
    await page.locator(ready).first().waitFor();
    const got = await page.evaluate<{ page: number; window: number; outside: string[] }>(layout);
    t.ok(got.page <= got.window, `${path}: the page is ${got.page} px wide in a ${got.window} px window`);
    t.same(got.outside, [], `${path}: every tab and the cluster name are on the header`);
  }
  t.same(pageErrors, [], 'no script error on the page');
});
