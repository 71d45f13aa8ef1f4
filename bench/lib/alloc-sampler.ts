import { Session } from 'node:inspector';

/** A node of V8's sampling heap profile (HeapProfiler.SamplingHeapProfileNode, the fields read here). */
interface ProfileNode {
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

/**
 * The bytes a stretch of code allocates, objects that die young included: V8's sampling heap
 * profiler (`HeapProfiler.startSampling` with `includeObjectsCollectedByMinorGC` and
 * `…ByMajorGC`), through an in-process inspector session, whose calls answer synchronously. It is
 * an estimate (one sample per `intervalBytes` allocated, on average), but unlike a time it does
 * not move with the machine's speed: a change that makes less garbage shows here when the match's
 * time, on a shared machine, cannot show it (bench/README.md). Sampling slows what it measures:
 * the times of a run that samples are not comparable with others.
 */
export class AllocSampler {
  private readonly session = new Session();

  constructor(private readonly intervalBytes = 16_384) {
    this.session.connect();
    this.call('HeapProfiler.enable');
  }

  /** Starts counting. */
  start(): void {
    this.call('HeapProfiler.startSampling', {
      samplingInterval: this.intervalBytes, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true,
    });
  }

  /** Stops counting; returns the bytes allocated since {@link start} (the profile's sampled total). */
  stop(): number {
    const result = this.call('HeapProfiler.stopSampling') as { profile: { head: ProfileNode } };
    let bytes = 0;
    const stack: ProfileNode[] = [result.profile.head];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      bytes += node.selfSize;
      stack.push(...node.children);
    }
    return bytes;
  }

  /** Ends the session. */
  close(): void {
    this.session.disconnect();
  }

  private call(method: string, params?: object): unknown {
    let answer: unknown;
    let failure: Error | null = null;
    this.session.post(method, params, (err, result) => {
      failure = err;
      answer = result;
    });
    if (failure !== null) throw failure;
    return answer;
  }
}
