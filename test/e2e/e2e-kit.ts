import { createServer, type AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { tempDir as harnessTempDir } from '../harness/temp-dir';

export { sleep, waitFor, within } from '../harness/wait';

/*
 * Light helpers of the e2e tests (no pacer imports, so that the tests spawning src/main.ts do
 * not load the server here): temp dirs, a free port, and the bounded waits of test/harness/wait.ts.
 */

/** A fresh directory under the OS temp dir, removed after the test (after every other teardown registered later). */
export function tempDir(t: Test, prefix = 'pacer-e2e-'): string {
  return harnessTempDir(t, prefix);
}

/** A port on 127.0.0.1 that was free a moment ago (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
