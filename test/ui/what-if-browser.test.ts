import t, { type Test } from 'tap';
import { chromiumSkip } from '../harness/chromium';
import { openSeededUi, type SeededUi } from './seeded-ui';

/**
 * The app page's edit dialog in headless Chromium (issue 18): "What if?" sends the edited
 * definition as `PUT /v2/apps/web?dryRun=true&simulate=PT30M` and shows the answer — whether the
 * change would finish, where the new instances would land, what would wait and why — and nothing
 * is deployed. Over the API fixture with what-if (two agents, /web running 2 instances on agent-a).
 */
/** The UI over the what-if API fixture (`seedWeb`), its page of /web with the Edit JSON dialog open. */
async function openEditDialog(t: Test): Promise<SeededUi> {
  const opened = await openSeededUi(t, { width: 1280, height: 900 });
  await opened.page.goto(`${opened.origin}/ui/apps/web`);
  await opened.page.getByRole('button', { name: 'Edit JSON…' }).click();
  return opened;
}

t.test('the edit dialog shows the what-if answer for the edited app, and deploys nothing', { skip: chromiumSkip() }, async (t) => {
  const { fx, page, pageErrors } = await openEditDialog(t);
  const editor = page.locator('textarea.json');
  await editor.waitFor();
  const definition = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
  await editor.fill(JSON.stringify({ ...definition, instances: 10 }, null, 2));
  const calls = fx.harness.driver.calls.length;
  await page.locator('[data-testid="what-if-button"]').click();

  const headline = page.locator('[data-testid="what-if-headline"]');
  await headline.waitFor();
  t.equal(await headline.innerText(), 'Would not finish within 30 min', 'the change would not finish: 2 of 8 new instances do not fit');
  const rows = page.locator('[data-testid="what-if-launched"] tbody tr');
  t.equal(await rows.count(), 6, 'six new instances would start');
  const hosts = (await rows.allInnerTexts()).map((r) => r.split('\t')[1]).sort();
  t.same(hosts, ['host-a', 'host-a', 'host-b', 'host-b', 'host-b', 'host-b'], 'two on host-a (1 cpu left), four on host-b');
  t.match(await page.locator('[data-testid="what-if-waiting"]').innerText(), /\/web: 2 instances wait — not enough cpus on the agent \(\d+ offers\)/);
  t.equal(fx.harness.driver.calls.length, calls, 'no driver call');
  t.same(fx.harness.scheduler.runningPlans(), [], 'no deployment');
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2, 'the app is unchanged');
  t.same(pageErrors, [], 'no script error on the page');
});

/**
 * The edit dialog shows one error, the latest request's: a refused deploy's 422 goes when a
 * what-if starts (and the other way round), so a what-if that then succeeds shows its answer
 * alone, and a failure shows once (a new user saw a stale 422 under a what-if's answer, and the
 * same 422 twice).
 */
t.test('the edit dialog clears the previous error when a what-if or a deploy starts', { skip: chromiumSkip() }, async (t) => {
  const { fx, page, pageErrors } = await openEditDialog(t);
  const dialog = page.getByRole('dialog');
  const editor = dialog.locator('textarea.json');
  await editor.waitFor();
  const definition = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
  const invalid = JSON.stringify({ ...definition, cpus: 'lots' });
  const valid = JSON.stringify({ ...definition, instances: 3 });
  const whatIf = dialog.locator('[data-testid="what-if-button"]');
  const deploy = dialog.getByRole('button', { name: 'Deploy the change' });
  // Each step: the definition, the button pressed, then how many error boxes and whether a what-if answer shows.
  const steps: [string, string, 'deploy' | 'what-if', number, boolean][] = [
    ['a refused deploy', invalid, 'deploy', 1, false],
    ['a refused what-if after it', invalid, 'what-if', 1, false],
    ['a refused deploy after a refused what-if', invalid, 'deploy', 1, false],
    ['a what-if that succeeds after it', valid, 'what-if', 0, true],
  ];
  for (const [name, text, action, errors, answer] of steps) {
    await editor.fill(text);
    const answered = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().includes('dryRun=true') === (action === 'what-if'));
    const button = action === 'deploy' ? deploy : whatIf;
    await button.click();
    t.equal((await answered).status(), answer ? 200 : 422, `${name}: the API answers ${answer ? 200 : 422}`);
    // The request is over for the page once its button is enabled again, with its own label.
    await button.filter({ hasText: action === 'deploy' ? 'Deploy the change' : 'What if?' }).and(page.locator(':enabled')).waitFor();
    t.equal(await dialog.getByRole('alert').count(), errors, `${name}: ${errors} error box${errors === 1 ? '' : 'es'}`);
    if (errors === 1) t.match(await dialog.getByRole('alert').innerText(), /^422 /, `${name}: the 422`);
    t.equal(await dialog.locator('[data-testid="what-if"]').count(), answer ? 1 : 0, `${name}: ${answer ? 'the' : 'no'} what-if answer`);
  }
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2, 'nothing was deployed');
  t.same(pageErrors, [], 'no script error on the page');
});
