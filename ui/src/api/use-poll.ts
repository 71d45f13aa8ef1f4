import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, getJson } from './client';
import { keptAfterFailure } from './poll-failure';
import { startPollLoop, type PollEnv } from './poll-loop';

/** How often the pages re-read the API (the API is the UI's only source; the event tail is separate). */
export const POLL_MS = 2000;

const refreshers = new Set<() => void>();

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

/** Re-reads every polled resource at once (after an action, so that its effect shows without waiting). */
export function refreshAll(): void {
  for (const r of refreshers) r();
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
 * shown again, {@link startPollLoop}) and on {@link refreshAll}, while the component is mounted;
 * `path` undefined reads nothing. Requests never overlap (a reload asked for meanwhile runs when
 * the current one ends). A failure keeps the last good answer and reports the error, so a page
 * stays readable while pacer is briefly unreachable; a 404 drops it ({@link keptAfterFailure}).
 */
export function usePoll<T>(path: string | undefined, intervalMs: number = POLL_MS): Polled<T> {
  const [state, setState] = useState<PollState<T>>({ path, data: undefined, error: undefined });
  const runRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (path === undefined) return undefined;
    const abort = new AbortController();
    const read = (): Promise<void> => getJson<T>(path, abort.signal).then(
      (data) => setState({ path, data, error: undefined }),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        const failure = err instanceof ApiFailure ? err : new ApiFailure(0, String(err), undefined, `GET ${path}`);
        setState((s) => ({ path, data: s.path === path ? keptAfterFailure(s.data, failure) : undefined, error: failure }));
      },
    );
    const loop = startPollLoop(read, intervalMs, PAGE_ENV);
    runRef.current = loop.run;
    refreshers.add(loop.run);
    return () => {
      abort.abort();
      refreshers.delete(loop.run);
      loop.stop();
    };
  }, [path, intervalMs]);
  const reload = useCallback(() => runRef.current(), []);
  const current = state.path === path;
  const data = current ? state.data : undefined;
  const error = current ? state.error : undefined;
  return { data, error, loading: path !== undefined && data === undefined && error === undefined, reload };
}
