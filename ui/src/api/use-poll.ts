import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiFailure } from './client';
import { getJson } from './client';
import type { PollEnv } from './poll-loop';
import { SharedPolls } from './shared-polls';

/** How often the pages re-read the API (the API is the UI's only source; the event tail is separate). */
export const POLL_MS = 2000;

/** The browser's timers and page visibility. */
const PAGE_ENV: PollEnv = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (timer) => clearInterval(timer as ReturnType<typeof setInterval>),
  hidden: () => document.visibilityState === 'hidden',
  onVisibilityChange: (fn) => {
    document.addEventListener('visibilitychange', fn);
    return () => document.removeEventListener('visibilitychange', fn);
  },
};

/** Every polled GET of the page, one loop per path however many components show it. */
const POLLS = new SharedPolls((path, signal) => getJson<unknown>(path, signal), PAGE_ENV);

/** Re-reads every polled resource at once (after an action, so that its effect shows without waiting). */
export function refreshAll(): void {
  POLLS.refreshAll();
}

/** A polled GET: its latest answer, the failure of the latest attempt (if it failed), and whether the first answer is pending. */
export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: ApiFailure | undefined;
  readonly loading: boolean;
  reload(): void;
}

interface PollState<T> {
  readonly path: string | undefined;
  readonly data: T | undefined;
  readonly error: ApiFailure | undefined;
}

/**
 * GETs `path` now, every `intervalMs` while the page is visible (a hidden tab reads nothing until
 * shown again: poll-loop.ts) and on {@link refreshAll}, while the component is mounted; `path`
 * undefined reads nothing. Components polling the same path share one loop (shared-polls.ts): a
 * second one gets the latest answer at once and adds no request. Requests never overlap (a
 * reload asked for meanwhile runs when the current one ends). A failure keeps the last good
 * answer and reports the error, so a page stays readable while pacer is briefly unreachable; a
 * 404 drops it (poll-failure.ts).
 */
export function usePoll<T>(path: string | undefined, intervalMs: number = POLL_MS): Polled<T> {
  const [state, setState] = useState<PollState<T>>({ path, data: undefined, error: undefined });
  useEffect(() => {
    if (path === undefined) return undefined;
    // Shared with every other component polling the same path (shared-polls.ts): its latest answer at once.
    const { current, unsubscribe } = POLLS.subscribe<T>(path, intervalMs, (snapshot) => setState({ path, ...snapshot }));
    setState({ path, ...current });
    return unsubscribe;
  }, [path, intervalMs]);
  const reload = useCallback(() => {
    if (path !== undefined) POLLS.reload(path, intervalMs);
  }, [path, intervalMs]);
  const current = state.path === path;
  const data = current ? state.data : undefined;
  const error = current ? state.error : undefined;
  return { data, error, loading: path !== undefined && data === undefined && error === undefined, reload };
}
