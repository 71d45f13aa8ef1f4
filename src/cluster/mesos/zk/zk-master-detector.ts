import type { MasterDetector } from '../master-detector';
import { JSON_INFO_PREFIX, leaderZnode, PROTOBUF_INFO_PREFIX } from './leader-znode';
import { masterUrlFromInfo } from './master-url-from-info';
import { ZkClient } from './zk-client';
import type { ZkConnectionOptions } from './zk-connection';
import { ZkError } from './zk-error';
import { ErrorCode } from './zk-protocol';
import type { ZkUrl } from './zk-url';
import { describeZkUrl, parseZkUrl } from './zk-url';

/** Tuning of a ZkMasterDetector; every field has a default. */
export interface ZkMasterDetectorOptions extends Partial<ZkConnectionOptions> {
  /** Scheme of the returned URL; MasterInfo does not say whether the master serves TLS. */
  scheme?: 'http' | 'https';
  /**
   * Reads of the group before giving up when the leader's znode vanishes between listing it and
   * reading it (an election in progress). Default 3.
   */
  maxElectionRetries?: number;
}

/**
 * `--master zk://[user:pass@]h1:2181[,h2:2181…]/mesos`: finds the leading Mesos master the way
 * Mesos' own detector does (spec §1.9) — list the group znode's children, take the
 * `json.info_<sequence>` child with the lowest sequence, read its MasterInfo JSON and connect to
 * its address. It does not watch: every `leader()` call re-reads the group, which is exactly when
 * the driver needs the answer (before each (re)subscription after a lost stream). The ZooKeeper
 * session is opened lazily and kept (pinged) between calls; a lost server is replaced by the next
 * one of the URL.
 *
 * The constructor throws ZkError `BAD_URL` for a URL that does not parse. `leader()` rejects with
 * ZkError `UNREACHABLE`/`CONNECTION_LOSS` (no ZooKeeper server answered), `NO_MASTER` (no master
 * registered; the driver should back off and ask again), `MALFORMED_MASTER_INFO`, `AUTH_FAILED`,
 * or `CLOSED`.
 */
export class ZkMasterDetector implements MasterDetector {
  private readonly url: ZkUrl;
  private readonly client: ZkClient;
  private readonly scheme: 'http' | 'https';
  private readonly maxElectionRetries: number;

  constructor(zkUrl: string, options: ZkMasterDetectorOptions = {}) {
    this.url = parseZkUrl(zkUrl);
    const { scheme, maxElectionRetries, ...connectionOptions } = options;
    this.client = new ZkClient(this.url, connectionOptions);
    this.scheme = scheme ?? 'http';
    this.maxElectionRetries = maxElectionRetries ?? 3;
  }

  /** `http://host:port` of the current leading master (re-read from ZooKeeper on every call). */
  async leader(): Promise<string> {
    for (let attempt = 0; attempt < this.maxElectionRetries; attempt += 1) {
      const znode = await this.leaderZnodePath();
      const data = await this.client.getData(znode).catch(absentAs(undefined));
      if (data !== undefined) return masterUrlFromInfo(data, znode, this.scheme);
    }
    throw new ZkError('NO_MASTER', `the leading Mesos master's znode under ${describeZkUrl(this.url)} kept vanishing (election in progress?)`);
  }

  /** Ends the ZooKeeper session. */
  close(): void {
    this.client.close();
  }

  /** The full path of the leader's znode; NO_MASTER when the group is absent or empty. */
  private async leaderZnodePath(): Promise<string> {
    const children = await this.client.getChildren(this.url.path).catch(absentAs(null));
    if (children === null) throw this.noMaster(`the znode ${this.url.path} does not exist`);
    const leader = leaderZnode(children);
    if (leader === undefined) throw this.noMaster(this.whyNoLeader(children));
    return this.url.path === '/' ? `/${leader}` : `${this.url.path}/${leader}`;
  }

  private whyNoLeader(children: readonly string[]): string {
    if (children.some((name) => name.startsWith(PROTOBUF_INFO_PREFIX))) {
      return `only protobuf ${PROTOBUF_INFO_PREFIX}* znodes are registered (masters older than Mesos 0.24 are not supported; ${JSON_INFO_PREFIX}* is needed)`;
    }
    return `no ${JSON_INFO_PREFIX}* znode under ${this.url.path}`;
  }

  private noMaster(reason: string): ZkError {
    return new ZkError('NO_MASTER', `no Mesos master is registered in ${describeZkUrl(this.url)}: ${reason}`);
  }
}

/** A `.catch` handler that maps ZooKeeper's NONODE to `value` and rethrows anything else. */
function absentAs<T>(value: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof ZkError && error.serverCode === ErrorCode.NONODE) return value;
    throw error;
  };
}
