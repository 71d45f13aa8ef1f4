import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's `chromium` package (installed by `.ci/run`); `npx playwright install` cannot reach its hosts here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a closed network: without the background-networking ones Chromium's own connections
 * are refused and slow it down; no sandbox, as tests run as root.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Why a browser test must skip, or false when Chromium is installed. */
export function chromiumSkipReason(): string | false {
  return existsSync(CHROMIUM_PATH) ? false : `${CHROMIUM_PATH} is missing: the browser tests need Debian's chromium (apt-get install -y chromium)`;
}

/**
 * Headless Chromium with a fresh profile (a new temporary user-data dir), driven by
 * playwright-core. `close()` ends the browser and removes the profile.
 */
export async function launchChromium(): Promise<{ readonly context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'pacer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
