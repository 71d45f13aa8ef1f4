import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { startSim } from '../../src/runtime/start-sim';
import { buildUi } from '../../ui/build';
import { makeApi } from '../api/api-fixture';
import { tempDir, waitFor } from '../e2e/e2e-kit';
import { browserOfFile, chromiumSkip } from '../harness/chromium';
import { repoPath } from '../harness/repo-path';
import { PATIENCE_MS } from '../harness/wait';

/**
 * The web UI in a real browser (Debian's headless Chromium through playwright-core) over
 * `--cluster sim` running scenarios/demo.yaml: the list shows what the API created, a scale made
 * in the UI changes the API's answer, a stuck deployment and the queue show why, the live tail
 * shows an event, the simulation page shows agents and faults, and a 422 shows Marathon's details.
 * It screenshots the main views; with PACER_UI_SCREENSHOTS=1 it writes them into docs/ (the
 * README's pictures), otherwise into a temporary folder, so a test run leaves the tree clean.
 */

const SHOTS_TO_DOCS = process.env.PACER_UI_SCREENSHOTS === '1';
/** Long enough for a loaded 2-core machine; every wait is on a condition, never a fixed sleep. */
const WAIT_MS = PATIENCE_MS;
/** Both tests' pages are on one Chromium (a launch costs about 1.2 s of CPU), each page the test's own. */
const openBrowserPage = browserOfFile(t);
/** The UI is bundled once for both tests (the bundle is the same). */
let uiBuilt: Promise<unknown> | undefined;
const buildUiOnce = (): Promise<unknown> => (uiBuilt ??= buildUi());

t.test('the web UI in headless Chromium over --cluster sim', { skip: chromiumSkip() }, async (t) => {
  const startedAt = Date.now();
  await buildUiOnce();
  const shots = SHOTS_TO_DOCS ? repoPath('docs') : tempDir(t, 'pacer-ui-shots-');
  mkdirSync(shots, { recursive: true });
  const config: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload: 'scenarios/demo.yaml', speed: 20 };
  const pacer = await startSim(config);
  t.teardown(() => pacer.close());
  const base = `http://${pacer.address}`;
  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, {
      method, signal: AbortSignal.timeout(10_000),
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const { page, pageErrors } = await openBrowserPage(t, { width: 1280, height: 800 });
  const shoot = async (name: string): Promise<void> => {
    // The notes an action leaves in the corner fade after a few seconds; the pictures are taken without them.
    await page.waitForFunction('document.querySelector(".toast") === null');
    await page.screenshot({ path: join(shots, `ui-${name}.png`), fullPage: true });
  };

  t.equal((await api('POST', '/v2/apps', { id: '/shop/cart', cmd: 'sleep 3600', cpus: 0.2, mem: 64, instances: 1 })).status, 201, 'an app created through the API');

  await t.test('the list renders the apps and pods the API created', async (t) => {
    await page.goto(`${base}/`);
    t.equal(new URL(page.url()).pathname, '/ui/', 'GET / lands on the UI');
    for (const id of ['/web', '/worker', '/cache', '/shop/cart']) {
      await page.locator(`tr[data-id="${id}"]`).waitFor();
      t.pass(`${id} is listed`);
    }
    await page.locator('tr[data-id="/web"]', { hasText: '3 / 3' }).waitFor();
    t.match(await page.locator('tr[data-id="/cache"]').innerText(), /pod/, 'the pod is listed as a pod');
    await shoot('apps');
  });

  await t.test("a scale from the UI changes the API's answer", async (t) => {
    await page.locator('a', { hasText: '/shop/cart' }).click();
    await page.waitForURL('**/ui/apps/shop/cart');
    await page.getByRole('button', { name: 'Scale…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="instances"]').fill('3');
    await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const app = await waitFor(async () => {
      const { json } = await api('GET', '/v2/apps/shop/cart');
      const a = json.app as { instances: number; tasksRunning: number };
      return a.instances === 3 && a;
    }, 'the API to answer instances: 3', WAIT_MS);
    t.equal(app.instances, 3, 'GET /v2/apps/shop/cart says 3 instances');
    await page.locator('[data-testid="app-instances"]', { hasText: '3 running / 3 wanted' }).waitFor();
    t.pass('the page shows the 3 instances running');
    await page.locator('tr[data-task]').nth(2).waitFor();
    t.equal(await page.locator('tr[data-task]').count(), 3, 'three tasks, listed per agent');
    // The picture: the demo's /web, health-checked and spread over zones.
    await page.goto(`${base}/ui/apps/web`);
    await page.locator('tr[data-task]', { hasText: 'healthy' }).first().waitFor();
    await shoot('app');
  });

  await t.test('a stuck deployment shows why it waits, and the queue why nothing starts', async (t) => {
    // The demo's agents have 4 cpus each, and none is called nowhere-*.
    const big = await api('POST', '/v2/apps', { id: '/shop/too-big', cmd: 'sleep 3600', cpus: 64, mem: 64, instances: 2 });
    const pinned = await api('POST', '/v2/apps', { id: '/shop/pinned', cmd: 'sleep 3600', cpus: 0.1, mem: 32, constraints: [['hostname', 'LIKE', 'nowhere-.*']] });
    t.same([big.status, pinned.status], [201, 201], 'two apps no agent can take');
    await page.getByRole('link', { name: /^Deployments/ }).click();
    await page.waitForURL('**/ui/deployments');
    const tooBig = page.locator('[data-testid="deployment"]', { hasText: '/shop/too-big' });
    await tooBig.locator('[data-testid="waiting-for"]', { hasText: 'InsufficientCpus' }).waitFor();
    t.match(await tooBig.locator('[data-testid="waiting-for"]').innerText(), /2 instances not placed: offers were declined[\s\S]*InsufficientCpus ×\d+: not enough cpus/);
    const stuck = page.locator('[data-testid="deployment"]', { hasText: '/shop/pinned' });
    await stuck.locator('[data-testid="waiting-for"]', { hasText: 'UnfulfilledConstraint' }).waitFor();
    t.pass('the constraint no agent satisfies is named');
    await shoot('deployments');

    await page.getByRole('link', { name: /^Queue/ }).click();
    const entry = page.locator('.card[data-id="/shop/too-big"]');
    await entry.locator('[data-testid="queue-verdict"]', { hasText: 'InsufficientCpus' }).waitFor();
    t.match(await entry.locator('[data-testid="queue-verdict"]').innerText(), /InsufficientCpus on \d agents? \(not enough cpus on the agent\)/);
    t.ok(await entry.locator('td', { hasText: 'not enough cpus on the agent' }).count() > 0, "each agent's last declined offer");
    await shoot('queue');
  });

  await t.test('an event appears in the live tail, and the tail filters by type', async (t) => {
    await page.getByRole('link', { name: 'Events' }).click();
    await page.locator('[data-testid="stream-state"]', { hasText: 'connected' }).waitFor();
    t.equal((await api('PUT', '/v2/apps/shop/cart', { instances: 2 })).status, 200, 'a change through the API');
    const posted = page.locator('tr.event-row[data-type="api_post_event"]', { hasText: 'app=/shop/cart' });
    await posted.first().waitFor();
    t.pass('api_post_event of /shop/cart is in the tail');
    await page.locator('tr.event-row[data-type="deployment_success"]').first().waitFor();
    await page.getByRole('button', { name: 'api_post_event', exact: true }).click();
    const types = await page.locator('tr.event-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')));
    t.ok(types.length > 0 && types.every((x) => x === 'api_post_event'), 'only the selected type is shown');
    await page.getByRole('button', { name: 'api_post_event', exact: true }).click();
    await shoot('events');
  });

  await t.test('the actions change what the API answers: edit, restart, kill a task, suspend, delete, scale a pod, stop and roll back deployments', async (t) => {
    const appOf = async (): Promise<{ cmd: string; instances: number; deployments: unknown[]; tasks: { id: string }[] } | undefined> => {
      const res = await api('GET', '/v2/apps/shop/cart?embed=app.tasks&embed=app.deployments');
      return res.status === 200 ? res.json.app as { cmd: string; instances: number; deployments: unknown[]; tasks: { id: string }[] } : undefined;
    };
    const settled = (n: number) => waitFor(async () => {
      const a = await appOf();
      return a !== undefined && a.deployments.length === 0 && a.tasks.length === n && a;
    }, `/shop/cart settled at ${n} tasks`, WAIT_MS);
    await page.goto(`${base}/ui/apps/shop/cart`);
    await settled(2);
    const dialog = page.getByRole('dialog');

    await page.getByRole('button', { name: 'Edit JSON…' }).click();
    const editor = dialog.locator('textarea');
    const definition = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    t.notOk('tasksRunning' in definition || 'version' in definition, 'the editor leaves out what the API computes');
    await editor.fill(JSON.stringify({ ...definition, cmd: 'sleep 7200' }));
    await dialog.getByRole('button', { name: 'Deploy the change' }).click();
    await dialog.waitFor({ state: 'detached' });
    t.equal((await settled(2)).cmd, 'sleep 7200', 'Edit JSON: the API has the new command');

    const before = new Set((await appOf())?.tasks.map((task) => task.id));
    await page.getByRole('button', { name: 'Restart…' }).click();
    await dialog.getByRole('button', { name: 'Restart', exact: true }).click();
    const restarted = await waitFor(async () => {
      const a = await settled(2);
      return a.tasks.every((task) => !before.has(task.id)) && a;
    }, 'the restart to replace both tasks', WAIT_MS);
    t.equal(restarted.tasks.length, 2, 'restart: two new tasks replaced the old ones');

    const victim = (await appOf())?.tasks[0]?.id ?? '';
    await page.locator(`tr[data-task="${victim}"]`).getByRole('button', { name: 'Kill…' }).click();
    await dialog.getByLabel(/scale the app down by one/).check();
    await dialog.getByRole('button', { name: 'Kill', exact: true }).click();
    const afterKill = await settled(1);
    t.equal(afterKill.instances, 1, 'kill with scale=true: one instance fewer');
    t.notOk(afterKill.tasks.some((task) => task.id === victim), 'and not the killed one');

    await page.getByRole('button', { name: 'Suspend…' }).click();
    await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
    t.equal((await settled(0)).instances, 0, 'suspend: 0 instances');
    // It ran before: the page must not say that no instance was ever launched.
    await page.locator('[data-testid="no-instances"]', { hasText: 'Suspended: 0 instances.' }).waitFor();
    t.pass('the page says it is suspended with 0 instances');

    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/ui/');
    await waitFor(async () => (await api('GET', '/v2/apps/shop/cart')).status === 404, '/shop/cart deleted', WAIT_MS);
    t.pass('delete: the API no longer has /shop/cart');

    await page.goto(`${base}/ui/pods/cache`);
    await page.getByRole('button', { name: 'Scale…' }).click();
    await dialog.locator('input[name="instances"]').fill('2');
    await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
    await waitFor(async () => {
      const { json } = await api('GET', '/v2/pods/cache');
      return (json.scaling as { instances: number }).instances === 2;
    }, 'the pod at 2 instances', WAIT_MS);
    t.pass('a pod scaled from the UI: the API says 2 instances');

    await page.getByRole('link', { name: /^Deployments/ }).click();
    const idOf = async (app: string): Promise<string> => {
      const { json } = await api('GET', `/v2/apps${app}`);
      return ((json.app as { deployments: { id: string }[] }).deployments[0]?.id) ?? '';
    };
    const pinned = await idOf('/shop/pinned');
    await page.locator(`[data-testid="deployment"][data-id="${pinned}"]`).getByRole('button', { name: 'Stop…' }).click();
    await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.locator(`[data-testid="deployment"][data-id="${pinned}"]`).waitFor({ state: 'detached' });
    const running = await api('GET', '/v2/deployments');
    t.notOk(JSON.stringify(running.json).includes(pinned), 'stop: the deployment is gone from the API');
    const tooBig = await idOf('/shop/too-big');
    await page.locator(`[data-testid="deployment"][data-id="${tooBig}"]`).getByRole('button', { name: 'Roll back…' }).click();
    await dialog.getByRole('button', { name: 'Roll back', exact: true }).click();
    await waitFor(async () => (await api('GET', '/v2/apps/shop/too-big')).status === 404, 'the rollback to remove /shop/too-big', WAIT_MS);
    t.pass('roll back: the app the deployment created is removed');
  });

  await t.test('the simulation page shows virtual time, the agents and the faults', async (t) => {
    await page.getByRole('link', { name: 'Simulation' }).click();
    await page.locator('[data-testid="agents-table"] tbody tr').nth(5).waitFor();
    t.equal(await page.locator('[data-testid="agents-table"] tbody tr').count(), 6, "the demo's six agents");
    t.match(await page.locator('[data-testid="faults-table"]').innerText(), /partition\s+agent-2[\s\S]*heal\s+agent-2/, 'its partition and heal');
    t.match(await page.locator('[data-testid="virtual-time"]').innerText(), /\d+s/, 'the virtual clock');
    await shoot('simulation');
  });

  await t.test("a definition the API refuses shows Marathon's message and details", async (t) => {
    await page.goto(`${base}/ui/create`);
    await page.getByLabel('Definition (JSON)').fill(JSON.stringify({ id: '/bad', cmd: 'sleep 1', cpus: 'lots' }));
    await page.getByRole('button', { name: 'Create app' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.match(await alert.innerText(), /422 Invalid JSON[\s\S]*\/cpus: error\.expected\.jsnumber/);
    t.equal((await api('GET', '/v2/apps/bad')).status, 404, 'nothing was created');
  });

  t.same(pageErrors, [], 'no script error in the page');
  t.comment(`browser test: ${((Date.now() - startedAt) / 1000).toFixed(1)} s; screenshots in ${shots}`);
});

t.test('the same UI over another cluster: no simulation page, nothing breaks', { skip: chromiumSkip() }, async (t) => {
  await buildUiOnce();
  // The REST API over the in-process core (manual time), as a local cluster describes itself, on a real socket.
  const { app } = makeApi({ config: { clusterKind: 'local', master: 'local://1 agent(s) on this host' } });
  t.teardown(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const created = await fetch(`${base}/v2/apps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10_000),
    body: JSON.stringify({ id: '/solo', cmd: 'sleep 3600', cpus: 0.1, mem: 32 }),
  });
  t.equal(created.status, 201);
  const { page, pageErrors } = await openBrowserPage(t, { width: 1400, height: 900 });
  // A failed request (the 404 of an endpoint this cluster does not serve) is a console error in the browser.
  const consoleErrors: string[] = [];
  page.on('console', (msg) => void (msg.type() === 'error' && consoleErrors.push(msg.text())));
  const simRequests: string[] = [];
  page.on('request', (req) => void (new URL(req.url()).pathname.startsWith('/pacer/') && simRequests.push(req.url())));
  await page.goto(`${base}/ui/`);
  await page.locator('tr[data-id="/solo"]', { hasText: 'Waiting' }).waitFor();
  t.pass('the app waits for offers (nothing offers in manual time)');
  await page.locator('header .cluster', { hasText: 'local cluster' }).waitFor();
  t.equal(await page.getByRole('link', { name: 'Simulation' }).count(), 0, 'no simulation tab: /v2/info says the cluster is local');
  await page.goto(`${base}/ui/simulation`);
  const note = page.locator('[data-testid="not-sim"]');
  await note.waitFor();
  t.equal(await note.innerText(), 'The simulation page is for pacer started with --cluster sim (this one: local cluster).', 'the simulation page says what it is for');
  t.equal(await page.getByRole('alert').count(), 0, 'and shows no error');
  await page.goto(`${base}/ui/`);
  await page.locator('tr[data-id="/solo"]').waitFor();
  t.same(simRequests, [], 'the UI never asked for /pacer/v1/sim');
  t.same(consoleErrors, [], 'no error in the console');
  t.same(pageErrors, [], 'no script error in the page');
});
