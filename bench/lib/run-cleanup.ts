import { constants } from 'node:os';

/** The clean-ups of the runs in progress, for {@link cleanUpOnSignals}. */
const activeCleanups = new Set<() => Promise<void>>();

/**
 * What a run must undo (stop the processes it started, remove its temp directories), made safe to
 * call more than once: the first call runs `steps`, every later one gets the same promise. Until
 * it has run, it is also what {@link cleanUpOnSignals} runs on SIGINT or SIGTERM, so a run cut
 * short by Ctrl-C cleans up exactly as a run that failed. Register it as soon as there is
 * something to undo, before the first `await`, and call it in the run's `finally`.
 */
export function runCleanup(steps: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const cleanup = (): Promise<void> => {
    done ??= steps().catch((err: unknown) => {
      console.error(`clean-up failed: ${(err as Error).message}`);
    }).finally(() => activeCleanups.delete(cleanup));
    return done;
  };
  activeCleanups.add(cleanup);
  return cleanup;
}

/**
 * A benchmark's SIGINT and SIGTERM (Ctrl-C, `kill`): instead of dying at once, leaving pacer, its
 * task processes, ZooKeeper and the temp directories behind, it says so on stderr, runs the
 * clean-up of every run in progress ({@link runCleanup}; each is bounded: SIGKILL after 10 s) and
 * exits 128 + the signal's number (130, 143). A signal that comes during the clean-up is
 * ignored: the clean-up finishes. For a benchmark's `main`, not for tests that call its run.
 */
export function cleanUpOnSignals(name: string): void {
  let first: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (first !== undefined) {
      console.error(`${name}: ${signal} during the clean-up: it finishes first (bounded)`);
      return;
    }
    first = signal;
    console.error(`${name}: ${signal}: stopping what it started and removing its temp directories`);
    void Promise.all([...activeCleanups].map((c) => c())).then(() => process.exit(128 + constants.signals[signal]));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
