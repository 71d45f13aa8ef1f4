/**
 * Why a ZooKeeper operation or a master detection failed:
 * - `BAD_URL`: the `zk://` URL does not parse (or asks for something unsupported);
 * - `UNREACHABLE`: no server of the ensemble accepted a session in time;
 * - `CONNECTION_LOSS`: a request got no answer in time (no server reachable, or the answer lost);
 * - `SESSION_EXPIRED`: the server expired the session (its ephemeral znodes and watches are gone);
 * - `AUTH_FAILED`: the server rejected the `user:pass@` digest credentials;
 * - `SERVER`: the server answered a request with a KeeperException code (see `serverCode`);
 * - `NO_MASTER`: no Mesos master has registered a `json.info_` znode under the path;
 * - `MALFORMED_MASTER_INFO`: the leader's znode does not hold a usable MasterInfo JSON;
 * - `CLOSED`: the session or detector was closed.
 */
export type ZkErrorKind =
  | 'BAD_URL' | 'UNREACHABLE' | 'CONNECTION_LOSS' | 'SESSION_EXPIRED' | 'AUTH_FAILED'
  | 'SERVER' | 'NO_MASTER' | 'MALFORMED_MASTER_INFO' | 'CLOSED';

/**
 * The one error type of the ZooKeeper session and master detector, so that the Mesos driver can
 * tell "retry later" (UNREACHABLE, CONNECTION_LOSS, NO_MASTER) from configuration mistakes.
 */
export class ZkError extends Error {
  /**
   * @param kind what went wrong (see ZkErrorKind)
   * @param message a human sentence naming the server or path; never contains credentials
   * @param serverCode ZooKeeper's KeeperException code when `kind` is `SERVER` (e.g. -101 NONODE)
   */
  constructor(readonly kind: ZkErrorKind, message: string, readonly serverCode?: number) {
    super(message);
    this.name = 'ZkError';
  }
}
