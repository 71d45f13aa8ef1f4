import t from 'tap';
import { buildUi } from '../../ui/build';
import { chromiumSkip, openBrowserPage } from '../harness/chromium';
import { openSeededUi } from './seeded-ui';
import { waitFor } from '../harness/wait';
import { defaultConfig } from '../../src/runtime/config';
import { startSim } from '../../src/runtime/start-sim';

/**
 * The UI from the keyboard alone, in headless Chromium over the in-process API (/web running 2
 * instances). Found in a browser trial: a dialog opened with Enter left focus on the page behind
 * it (the scale's `autofocus` field was not focused: a browser honours the attribute only until
 * something has had focus), Tab walked the page under the backdrop, typing the count went nowhere,
 * and closing the dialog dropped focus to the document's body.
 */
t.test('a dialog takes focus, keeps Tab inside, confirms on Enter and gives focus back', { skip: chromiumSkip() }, async (t) => {
  const { fx, page, pageErrors, origin } = await openSeededUi(t, { width: 1280, height: 900 });
  // What has focus: `page:` or `dialog:` and its name or text (run in the page: this file has no DOM types).
  const focused = (): Promise<string> => page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return 'body';
    return (el.closest('[role="dialog"]') === null ? 'page' : 'dialog') + ':' + (el.getAttribute('name') ?? el.textContent?.trim() ?? el.tagName);
  })()`);
  await page.goto(`${origin}/ui/apps/web`);
  const scale = page.getByRole('button', { name: 'Scale…' });
  await scale.waitFor();

  // Tab to Scale… (bounded: the page has a few dozen stops), open it with Enter.
  for (let i = 0; i < 60 && (await focused()) !== 'page:Scale…'; i++) await page.keyboard.press('Tab');
  t.equal(await focused(), 'page:Scale…', 'Tab reaches Scale…');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await page.waitForFunction(`document.activeElement?.closest('[role="dialog"]') != null`);
  t.equal(await focused(), 'dialog:instances', 'the count field has focus once the dialog opens');
  const stops: string[] = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focused());
  }
  t.ok(stops.every((s) => s.startsWith('dialog:')), `Tab stays in the dialog (${stops.join(', ')})`);
  await page.keyboard.press('Shift+Tab');
  t.match(await focused(), /^dialog:/, 'Shift+Tab stays in the dialog');

  // Escape closes it and gives focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.equal(await focused(), 'page:Scale…', 'Escape gives focus back to Scale…');

  // Open again, type the count, Enter: the scale is made.
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await page.waitForFunction(`document.activeElement?.getAttribute('name') === 'instances'`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  t.equal(await waitFor(async () => fx.harness.scheduler.runSpec('/web')?.instances === 3, '/web at 3 instances'), true, 'Enter in the count scaled /web to 3');
  t.equal(await focused(), 'page:Scale…', 'focus is back on Scale… after the action');
  t.same(pageErrors, [], 'no script error on the page');
});

/** The event tail's rows open their JSON on a click: from the keyboard too (found in the same trial: the rows were not focusable). */
t.test("an event's JSON opens from the keyboard", { skip: chromiumSkip() }, async (t) => {
  await buildUi();
  // The event stream needs the whole runtime: pacer over --cluster sim (scenarios/demo.yaml), whose workload makes events.
  const pacer = await startSim({ ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload: 'scenarios/demo.yaml', speed: 20 });
  t.teardown(() => pacer.close());
  const { page, pageErrors } = await openBrowserPage(t, { width: 1280, height: 900 });
  await page.goto(`http://${pacer.address}/ui/events`);
  await page.locator('tr.event-row').first().waitFor();
  await page.getByRole('button', { name: 'Pause' }).click();
  const onRow = `document.activeElement?.matches('tr.event-row') === true`;
  for (let i = 0; i < 80 && !(await page.evaluate<boolean>(onRow)); i++) await page.keyboard.press('Tab');
  t.ok(await page.evaluate<boolean>(onRow), 'Tab reaches an event row');
  const json = page.locator('pre.json');
  await page.keyboard.press('Enter');
  await json.waitFor();
  t.match(await json.innerText(), /"eventType"/, "Enter shows the event's JSON");
  await page.keyboard.press(' ');
  await json.waitFor({ state: 'detached' });
  t.pass('Space hides it again');
  t.same(pageErrors, [], 'no script error on the page');
});
