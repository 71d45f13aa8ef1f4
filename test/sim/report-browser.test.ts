import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { browserOfFile, chromiumSkip } from '../harness/chromium';
import { runSimCli } from '../harness/run-sim-cli';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * `npm run sim -- scenarios/partition.yaml --report FILE`, opened in headless Chromium with every
 * request outside the file refused: the page draws offline, shows the partition of agent-1 and the
 * instance that replaced the partitioned one on agent-4, and lists the kill of the surplus with its
 * reason. Writes a screenshot (docs/report-partition.png with PACER_UPDATE_SCREENSHOTS=1, else a
 * temporary file).
 */

const REPO = REPO_ROOT;
const skip = chromiumSkip();
/** Both tests' pages are on one Chromium (a launch costs about 1.2 s of CPU), each page the test's own. */
const openPage = browserOfFile(t);

t.test('the HTML report of partition.yaml shows the partition and the replacement instance', { skip, timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-report-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const report = join(dir, 'partition.html');
  // Relative, as a user types it (the report shows the replay command); tap runs tests in the repository.
  const run = runSimCli(['scenarios/partition.yaml', '--report', report]);
  t.equal(run.code, 0, run.err);
  // The summary names the replacement: launched on agent-4 at 4m15s, after agent-1's instance became inactive.
  const replacement = /^ +4m15\.000s {2}launch (web\.instance-[0-9a-f]{8}) of \/web on agent-4$/m.exec(run.out)?.[1];
  if (replacement === undefined) throw new Error(`no replacement in the summary:\n${run.out}`);

  const { page } = await openPage(t, { width: 1280, height: 1000 });
  const outside: string[] = [];
  // On the page, before it loads anything: every request it makes is routed here.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const errors: string[] = [];
  page.on('pageerror', (err) => void errors.push(String(err)));
  page.on('console', (msg) => void (msg.type() === 'error' && errors.push(msg.text())));
  await page.goto(pathToFileURL(report).href);
  await page.waitForSelector('body[data-rendered]', { timeout: 60_000 });
  t.equal(await page.getAttribute('body', 'data-rendered'), 'true', await page.locator('#report-error').textContent() ?? '');
  t.strictSame(errors, [], 'no script error');
  t.strictSame(outside, [], 'nothing outside the file is requested: the page works offline');

  const faults = await page.locator('#timeline [aria-description="faults"] title').allTextContents();
  t.ok(faults.includes('partition agent-1'), `the partition is shaded on agent-1's row (${faults.join('; ')})`);
  const faultBox = await page.locator('#timeline [aria-description="faults"] rect').first().boundingBox();
  t.ok(faultBox !== null && faultBox.width > 100, 'and it spans its time (1m to 6m of 15m)');
  const instances = await page.locator('#timeline [aria-description="instances"] title').allTextContents();
  t.ok(instances.some((title) => title.startsWith(`${replacement} of /web on agent-4: Running 4m1`)), `the replacement ${replacement} runs on agent-4 (${instances.filter((i) => i.includes('agent-4')).join('; ')})`);
  t.ok(instances.some((title) => /^web\.instance-\w{8} of \/web on agent-1: Unreachable 2m15s–4m15s$/.test(title)), 'the partitioned instance turns Unreachable');
  const names = await page.locator('#timeline [aria-description="instance names"] text').allTextContents();
  t.ok(names.includes(replacement.slice(-8)), 'the replacement is named in the chart');
  const decisions = await page.locator('#decisions').textContent() ?? '';
  t.match(decisions, `launch ${replacement} of /web on agent-4`);
  t.match(decisions, `kill ${replacement} of /web on agent-4: scale-down (more instances than the target)`);
  t.ok(await page.locator('#counts svg').count() > 0, 'the instances-per-app chart is drawn');

  const shot = process.env.PACER_UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'report-partition.png') : join(dir, 'report-partition.png');
  await page.screenshot({ path: shot });
  t.comment(`screenshot: ${shot}`);
});

t.test('instances waiting for an offer are one row per app, with how many wait, ending where they were dropped', { skip, timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-report-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const scenario = join(dir, 'drop.yaml');
  writeFileSync(scenario, [
    'name: drop', 'seed: 1', 'duration: 2m', 'cluster:', '  agents:', '    - { count: 1, resources: { cpus: 3, mem: 1024 } }', 'timeline:',
    '  - { at: 0s, app: { id: /grp/cons, cmd: sleep 1000, instances: 2000, cpus: 1, mem: 64 } }',
    '  - { at: 30s, force: true, scale: { id: /grp/cons, instances: 3 } }', '',
  ].join('\n'));
  const report = join(dir, 'drop.html');
  const run = runSimCli([scenario, '--report', report]);
  t.equal(run.code, 0, run.err);
  const { page } = await openPage(t, { width: 1400, height: 900 });
  await page.goto(pathToFileURL(report).href);
  await page.waitForSelector('body[data-rendered]', { timeout: 60_000 });
  t.equal(await page.getAttribute('body', 'data-rendered'), 'true', await page.locator('#report-error').textContent() ?? '');
  const unplaced = (await page.locator('#timeline [aria-description="instances"] title').allTextContents()).filter((title) => title.includes('unplaced'));
  t.strictSame(unplaced, ['1997 instances of /grp/cons unplaced (Scheduled) 0s–30s'], 'one stretch, ending at the drop');
  t.ok((await page.locator('#timeline [aria-description="instance names"] text').allTextContents()).includes('1997'), 'naming how many wait');
  // The chart's svg is the tallest (the legend has its own small ones): the agent's lanes and one row.
  const height = await page.locator('#timeline svg').evaluateAll((svgs) => Math.max(...svgs.map((svg) => svg.getBoundingClientRect().height)));
  t.ok(height > 100 && height < 400, `a few rows high (${height} px)`);
});
