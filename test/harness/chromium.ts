import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

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
