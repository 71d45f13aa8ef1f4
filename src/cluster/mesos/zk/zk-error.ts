/**
 * Why a ZooKeeper operation or a master detection failed:
 * - `BAD_URL`: the `zk://` URL does not parse (or asks for something unsupported);
 * - `UNREACHABLE`: no server in the list could be connected to and greeted in time;
 * - `CONNECTION_LOSS`: an established connection broke or a request timed out;
 * - `SESSION_EXPIRED`: the server refused the session (negotiated timeout 0);
 * - `AUTH_FAILED`: the server rejected the `user:pass@` digest credentials;
 * - `PROTOCOL`: the server sent bytes that are not the jute message we expected;
 * - `SERVER`: the server answered a request with a non-zero error code (see `serverCode`);
 * - `NO_MASTER`: no Mesos master has registered a `json.info_` znode under the path;
 * - `MALFORMED_MASTER_INFO`: the leader's znode does not hold a usable MasterInfo JSON;
 * - `CLOSED`: the client or detector was closed.
 */
export type ZkErrorKind =
  | 'BAD_URL' | 'UNREACHABLE' | 'CONNECTION_LOSS' | 'SESSION_EXPIRED' | 'AUTH_FAILED' | 'PROTOCOL'
  | 'SERVER' | 'NO_MASTER' | 'MALFORMED_MASTER_INFO' | 'CLOSED';

/**
 * The one error type of the ZooKeeper client and master detector, so that the Mesos driver can
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

/** Whether the error means the connection is unusable and the next server should be tried. */
export function isConnectionFailure(error: unknown): boolean {
  return error instanceof ZkError && (error.kind === 'CONNECTION_LOSS' || error.kind === 'SESSION_EXPIRED' || error.kind === 'PROTOCOL');
}
