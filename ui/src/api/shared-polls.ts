import { ApiFailure } from './client';
import { keptAfterFailure } from './poll-failure';
import { startPollLoop, type PollEnv, type PollLoop } from './poll-loop';

/** The latest answer of one polled GET and the failure of its latest attempt, if it failed. */
export interface PollSnapshot<T> {
  readonly data: T | undefined;
  readonly error: ApiFailure | undefined;
}

/** Reads `path` (the API client's `getJson`; injected, so Node tests drive it). */
export type PollFetch = (path: string, signal: AbortSignal) => Promise<unknown>;

/**
 * The pages' polled GETs, one loop per path and interval however many components read it: the
 * header and the apps page both show the launch queue, and each read `/v2/queue` every 2 s on its
 * own, twice the requests (and twice pacer's work to answer them) for one answer. A component
 * that subscribes to a path already polled gets the latest answer at once and shares the loop;
 * the loop stops when its last subscriber leaves.
 */
export class SharedPolls {
  private readonly polls = new Map<string, Poll>();

  constructor(private readonly fetch: PollFetch, private readonly env: PollEnv) {}

  /**
   * Calls `listener` with every new snapshot of `path` (read now, every `intervalMs` and on
   * {@link refreshAll}); answers the snapshot so far (empty for a new poll) and the unsubscribe.
   */
  subscribe<T>(path: string, intervalMs: number, listener: (snapshot: PollSnapshot<T>) => void): { current: PollSnapshot<T>; unsubscribe: () => void } {
    const key = `${intervalMs} ${path}`;
    let poll = this.polls.get(key);
    const current = poll?.snapshot as PollSnapshot<T> | undefined;
    const listen = listener as (snapshot: PollSnapshot<unknown>) => void;
    if (poll === undefined) {
      poll = new Poll(path, intervalMs, this.fetch, this.env);
      this.polls.set(key, poll);
    }
    poll.listeners.add(listen);
    const shared = poll;
    return {
      current: current ?? EMPTY,
      unsubscribe: () => {
        shared.listeners.delete(listen);
        if (shared.listeners.size > 0 || this.polls.get(key) !== shared) return;
        this.polls.delete(key);
        shared.stop();
      },
    };
  }

  /** Re-reads every polled path at once (after an action, so that its effect shows without waiting). */
  refreshAll(): void {
    for (const poll of this.polls.values()) poll.loop.run();
  }

  /** Re-reads `path` polled at `intervalMs` now, if it is polled. */
  reload(path: string, intervalMs: number): void {
    this.polls.get(`${intervalMs} ${path}`)?.loop.run();
  }

  /** How many loops run (one per polled path and interval). */
  get size(): number {
    return this.polls.size;
  }
}

/** One polled path: its loop, its latest snapshot and who listens. */
class Poll {
  snapshot: PollSnapshot<unknown> = EMPTY;
  readonly listeners = new Set<(snapshot: PollSnapshot<unknown>) => void>();
  private readonly abort = new AbortController();
  /** Reads at once (its first answer comes later, a promise), then every interval. */
  readonly loop: PollLoop;

  constructor(private readonly path: string, intervalMs: number, private readonly fetch: PollFetch, env: PollEnv) {
    this.loop = startPollLoop(() => this.read(), intervalMs, env);
  }

  stop(): void {
    this.abort.abort();
    this.loop.stop();
  }

  private read(): Promise<void> {
    return this.fetch(this.path, this.abort.signal).then(
      (data) => this.publish({ data, error: undefined }),
      (err: unknown) => {
        if (this.abort.signal.aborted) return;
        const failure = err instanceof ApiFailure ? err : new ApiFailure(0, String(err), undefined, `GET ${this.path}`);
        this.publish({ data: keptAfterFailure(this.snapshot.data, failure), error: failure });
      },
    );
  }

  private publish(snapshot: PollSnapshot<unknown>): void {
    if (this.abort.signal.aborted) return;
    this.snapshot = snapshot;
    for (const listener of [...this.listeners]) listener(snapshot);
  }
}

const EMPTY: PollSnapshot<never> = { data: undefined, error: undefined };
