import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { buildUi } from '../../ui/build';
import { openBrowserPage, type BrowserPage } from '../harness/chromium';
import { seedWeb, whatIfApi, type WhatIfFixture } from '../api/whatif/what-if-fixture';

/** A page of headless Chromium beside the UI it can open, over the in-process API with /web seeded. */
export type SeededUi = BrowserPage & {
  readonly fx: WhatIfFixture;
  /** `http://127.0.0.1:<port>`: the UI's pages are `${origin}/ui/...`. */
  readonly origin: string;
};

/**
 * Builds the UI, serves the what-if API fixture with /web running 2 instances (`seedWeb`) on a
 * free port of 127.0.0.1, and opens a browser page of `viewport` (closed with the test): what
 * the browser tests of the UI's own pages start from.
 */
export async function openSeededUi(t: Test, viewport: { width: number; height: number }): Promise<SeededUi> {
  await buildUi();
  const fx = whatIfApi(t);
  seedWeb(fx);
  await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = fx.app.server.address() as AddressInfo;
  const opened = await openBrowserPage(t, viewport);
  return { ...opened, fx, origin: `http://127.0.0.1:${port}` };
}
