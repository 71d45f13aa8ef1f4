/**
 * ZooKeeper client-protocol numbers used by pacer's minimal client (ZooKeeper's
 * `ZooDefs.OpCode`, reserved xids, and `KeeperException.Code`). Every packet on the wire is a
 * 4-byte big-endian length followed by a jute record.
 */

/** Request types (the `type` of a RequestHeader). */
export const OpCode = {
  create: 1,
  delete: 2,
  getData: 4,
  getChildren: 8,
  ping: 11,
  auth: 100,
  closeSession: -11,
} as const;

/** Reserved xids: the server echoes them in the ReplyHeader of the matching packet. */
export const Xid = {
  /** A watch notification (WatcherEvent follows the header). */
  notification: -1,
  /** A ping's reply. */
  ping: -2,
  /** An AuthPacket's reply. */
  auth: -4,
} as const;

/** The KeeperException codes the client gives a name to; others are reported by number. */
export const ErrorCode: Readonly<Record<string, number>> = {
  OK: 0,
  SYSTEMERROR: -1,
  RUNTIMEINCONSISTENCY: -2,
  DATAINCONSISTENCY: -3,
  CONNECTIONLOSS: -4,
  MARSHALLINGERROR: -5,
  UNIMPLEMENTED: -6,
  OPERATIONTIMEOUT: -7,
  BADARGUMENTS: -8,
  APIERROR: -100,
  NONODE: -101,
  NOAUTH: -102,
  BADVERSION: -103,
  NOCHILDRENFOREPHEMERALS: -108,
  NODEEXISTS: -110,
  NOTEMPTY: -111,
  SESSIONEXPIRED: -112,
  INVALIDCALLBACK: -113,
  INVALIDACL: -114,
  AUTHFAILED: -115,
  SESSIONMOVED: -118,
  NOTREADONLY: -119,
};

/** `NONODE (-101)`-style name of a server error code, for error messages. */
export function errorCodeName(code: number): string {
  const name = Object.keys(ErrorCode).find((key) => ErrorCode[key] === code);
  return name === undefined ? `error ${code}` : `${name} (${code})`;
}

/** The protocol version of ConnectRequest; ZooKeeper 3.x speaks 0. */
export const PROTOCOL_VERSION = 0;
/** A new session's password is 16 zero bytes; the server issues the real one. */
export const EMPTY_SESSION_PASSWORD_BYTES = 16;
