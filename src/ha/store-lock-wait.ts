import { StoreLock } from '../runtime/store-lock';
import type { ElectionLogLevel } from './leader-election';

/** How often an elected pacer looks at a held store lock again (ms). */
export const STORE_LOCK_POLL_MS = 200;

/**
 * Resolves once no live process holds the store lock at `path` (the one next to `--store`, which
 * guards this host's sandboxes), so that the duties that take it next succeed; rejects as soon as
 * `stillLeading()` is false (the term ended: nothing to start).
 *
 * Why wait rather than fail: with `--zk`, a live holder is a pacer on this host that led before
 * and has not stepped down yet — paused (`kill -STOP`, a long GC or swap) past its session
 * timeout, so ZooKeeper elected this one. Its writes are fenced off already, but it still holds
 * the local cluster's sandboxes, and it steps down (releasing the lock) only once it runs again.
 * Failing here ended every standby elected meanwhile (each exited), leaving the paused leader the
 * only pacer; taking the lock over would let two processes drive the same sandboxes. So the
 * elected pacer does not serve until the holder steps down or dies (`kill -9` on it is safe: a
 * lock naming a dead process is taken over); one warn line names the pid.
 */
export async function waitForStoreLock(path: string, stillLeading: () => boolean, log: (line: string, level?: ElectionLogLevel) => void): Promise<void> {
  const startedMs = Date.now();
  let held = StoreLock.liveHolder(path);
  if (held === undefined) return;
  const holder = held;
  log(`the store lock ${path} is held by pid ${holder}, a pacer on this host that has not stopped leading (paused or hung?): `
    + 'not leading until it steps down or exits (stopping it, even with kill -9, lets this pacer lead)', 'warn');
  while (held !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, STORE_LOCK_POLL_MS));
    if (!stillLeading()) throw new Error(`the term ended while waiting for the store lock ${path}`);
    held = StoreLock.liveHolder(path);
  }
  log(`the store lock ${path} is free after ${Date.now() - startedMs} ms (pid ${holder} released it or exited)`);
}
