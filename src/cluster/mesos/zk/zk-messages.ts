import { JuteReader } from './jute-reader';
import { JuteWriter } from './jute-writer';
import { EMPTY_SESSION_PASSWORD_BYTES, PROTOCOL_VERSION } from './zk-protocol';

/** What the client asks for when it opens a session (jute `ConnectRequest`). */
export interface ConnectRequest {
  sessionTimeoutMs: number;
}

/** The server's answer to a ConnectRequest (jute `ConnectResponse`). */
export interface ConnectResponse {
  protocolVersion: number;
  /** Negotiated session timeout; 0 means the server refused (expired) the session. */
  sessionTimeoutMs: number;
  sessionId: bigint;
  password: Buffer;
  /** Absent when the server predates read-only mode (3.3 and older). */
  readOnly?: boolean;
}

/** The header of every reply (jute `ReplyHeader`). */
export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  /** 0 on success, otherwise a KeeperException code. */
  err: number;
}

/** A znode's metadata (jute `Stat`, 68 bytes on the wire). */
export interface Stat {
  czxid: bigint;
  mzxid: bigint;
  ctimeMs: bigint;
  mtimeMs: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

/** Prefixes a jute record with its 4-byte big-endian length, making it a wire packet. */
export function framePacket(record: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(record.length);
  return Buffer.concat([length, record]);
}

/**
 * A ConnectRequest for a new session: protocol 0, lastZxidSeen 0, the wished timeout, session
 * id 0, a 16-byte zero password, and readOnly false (servers before 3.4 ignore the trailing byte).
 */
export function encodeConnectRequest(request: ConnectRequest): Buffer {
  return new JuteWriter()
    .int(PROTOCOL_VERSION)
    .long(0n)
    .int(request.sessionTimeoutMs)
    .long(0n)
    .buffer(Buffer.alloc(EMPTY_SESSION_PASSWORD_BYTES))
    .bool(false)
    .bytes();
}

/** Decodes the first packet a server sends back; the trailing readOnly byte is optional. */
export function decodeConnectResponse(record: Buffer): ConnectResponse {
  const reader = new JuteReader(record);
  const response: ConnectResponse = {
    protocolVersion: reader.int(),
    sessionTimeoutMs: reader.int(),
    sessionId: reader.long(),
    password: reader.buffer() ?? Buffer.alloc(0),
  };
  if (reader.remaining > 0) response.readOnly = reader.bool();
  return response;
}

/** A request record: RequestHeader `{xid, type}` followed by the operation's body. */
export function encodeRequest(xid: number, opCode: number, body: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([new JuteWriter().int(xid).int(opCode).bytes(), body]);
}

/** Reads the ReplyHeader at the start of a reply; the reader is left at the reply's body. */
export function decodeReplyHeader(reader: JuteReader): ReplyHeader {
  return { xid: reader.int(), zxid: reader.long(), err: reader.int() };
}

/** The body of GetChildrenRequest and GetDataRequest: `{ustring path, boolean watch}`. */
export function encodePathRequest(path: string, watch: boolean): Buffer {
  return new JuteWriter().ustring(path).bool(watch).bytes();
}

/** The body of GetChildrenResponse: the children's names (not full paths), in server order. */
export function decodeGetChildrenResponse(reader: JuteReader): string[] {
  return reader.ustringVector() ?? [];
}

/** The body of GetDataResponse: the znode's bytes (null data reads as empty) and its Stat. */
export function decodeGetDataResponse(reader: JuteReader): { data: Buffer; stat: Stat } {
  const data = reader.buffer() ?? Buffer.alloc(0);
  return { data, stat: decodeStat(reader) };
}

/** Reads a jute Stat. */
function decodeStat(reader: JuteReader): Stat {
  return {
    czxid: reader.long(),
    mzxid: reader.long(),
    ctimeMs: reader.long(),
    mtimeMs: reader.long(),
    version: reader.int(),
    cversion: reader.int(),
    aversion: reader.int(),
    ephemeralOwner: reader.long(),
    dataLength: reader.int(),
    numChildren: reader.int(),
    pzxid: reader.long(),
  };
}

/** The body of an AuthPacket: `{int type = 0, ustring scheme, buffer auth}`. */
export function encodeAuthPacket(scheme: string, auth: string): Buffer {
  return new JuteWriter().int(0).ustring(scheme).buffer(Buffer.from(auth, 'utf8')).bytes();
}
