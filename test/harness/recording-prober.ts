import type { ProbeRequest, Prober } from '../../src/scheduler/ports/prober';

/** A Prober that only records the requests; tests answer them with `Harness.probe`. */
export class RecordingProber implements Prober {
  readonly requests: ProbeRequest[] = [];

  probe(request: ProbeRequest): void {
    this.requests.push(request);
  }

  /** The most recent request, optionally of one instance. */
  last(instanceId?: string): ProbeRequest | undefined {
    for (let i = this.requests.length - 1; i >= 0; i--) {
      if (instanceId === undefined || this.requests[i].instanceId === instanceId) return this.requests[i];
    }
    return undefined;
  }

  clear(): void {
    this.requests.length = 0;
  }
}
