import type { MasterDetector } from './master-detector';
import { masterBaseUrl } from './transport/leader-url';

/**
 * `--master http://host:5050`: always the configured master. If it is not the leader it answers
 * 307 with the leader's address and the driver follows (mesos-v1-scheduler-api.md §1.9), so one
 * reachable master of the quorum is enough. Throws on construction for a URL that is not http(s).
 */
export class StaticMasterDetector implements MasterDetector {
  private readonly baseUrl: string;

  constructor(masterUrl: string) {
    this.baseUrl = masterBaseUrl(masterUrl);
  }

  leader(): Promise<string> {
    return Promise.resolve(this.baseUrl);
  }

  close(): void {
    // nothing to release
  }
}
