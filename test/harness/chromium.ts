import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PATIENCE_MS } from './wait';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it). Playwright's own browser downloads cannot work offline. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a headless Chromium on a closed network: without the background-networking ones it
 * tries to reach Google's services and its connections are refused.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Why browser tests cannot run here (pass it as tap's `skip`), or false when they can. */
export function chromiumSkip(): string | false {
  return existsSync(CHROMIUM_PATH) ? false : `no ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;
}

/** A running headless Chromium with a fresh profile; `close()` stops it and removes the profile. */
export interface HeadlessChromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Starts {@link CHROMIUM_PATH} headless with {@link CHROMIUM_ARGS} and a fresh user-data dir. */
export async function launchChromium(viewport = { width: 1400, height: 900 }): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'pacer-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS], viewport,
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}

/** A page of a fresh headless Chromium, and the script errors it has thrown so far. */
export interface BrowserPage {
  readonly page: Page;
  readonly pageErrors: string[];
}

/**
 * Starts {@link launchChromium} (stopped when `t` ends) and opens one page on it that waits up to
 * {@link PATIENCE_MS} for what a test asks of it, collecting its uncaught script errors.
 */
export async function openBrowserPage(t: Test, viewport: { width: number; height: number }): Promise<BrowserPage> {
  const browser = await launchChromium(viewport);
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  page.setDefaultTimeout(PATIENCE_MS);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => void pageErrors.push(err.message));
  return { page, pageErrors };
}

/**
 * One headless Chromium for a whole test file, launched when a test first asks for a page and
 * stopped when the file ends (`file`: the file's root test): each launch costs about 1.2 s of CPU,
 * which a file with several browser tests paid per test. The function answers a new page of
 * `viewport` for test `t`, closed when `t` ends, collecting its uncaught script errors, as
 * {@link openBrowserPage} does. The pages share the browser's profile: cookies and storage are per
 * origin, so tests on servers of their own (each on its own port, or a file: URL each) see none
 * of each other's.
 */
export function browserOfFile(file: Test): (t: Test, viewport: { width: number; height: number }) => Promise<BrowserPage> {
  let browser: Promise<HeadlessChromium> | undefined;
  file.teardown(async () => {
    if (browser !== undefined) await browser.then((b) => b.close(), () => undefined);
  });
  return async (t, viewport) => {
    const page = await (await (browser ??= launchChromium(viewport))).context.newPage();
    t.teardown(() => page.close());
    await page.setViewportSize(viewport);
    page.setDefaultTimeout(PATIENCE_MS);
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => void pageErrors.push(err.message));
    return { page, pageErrors };
  };
}
