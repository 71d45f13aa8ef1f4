import { gunzipSync, gzipSync } from 'node:zlib';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import type { RecordKey } from '../records/record-codec';
import { RECORD_LOAD_ORDER } from '../records/record-load-order';

/**
 * Where the ZooKeeper store keeps what, under the `--zk` URL's path (docs/architecture.md,
 * "Store format"): `format` (the marker and format version), one znode per kind holding one child
 * per record, `chunks` (the pieces of records too large for one znode) and `set-aside`.
 */
export class ZkLayout {
  constructor(readonly base: string) {}

  get format(): string {
    return `${this.base}/format`;
  }

  get chunks(): string {
    return `${this.base}/chunks`;
  }

  get setAside(): string {
    return `${this.base}/set-aside`;
  }

  kind(kind: StoredRecordKind): string {
    return `${this.base}/${kind}`;
  }

  record(kind: StoredRecordKind, at: RecordKey): string {
    return `${this.kind(kind)}/${nodeName(at)}`;
  }

  chunk(name: string): string {
    return `${this.chunks}/${name}`;
  }

  /** Every container znode, parents first. */
  containers(): string[] {
    return [...RECORD_LOAD_ORDER.map((k) => this.kind(k)), this.chunks, this.setAside];
  }
}

/**
 * A record's znode name: its key, and for a run spec version `,` and the version, each
 * percent-encoded (ids hold `/`, which a znode name cannot; `,` never survives the encoding).
 */
export function nodeName(at: RecordKey): string {
  return at.version === undefined ? encodeURIComponent(at.key) : `${encodeURIComponent(at.key)},${encodeURIComponent(at.version)}`;
}

/** The key a znode name stands for, or undefined for a name this store never writes. */
export function keyOfNodeName(name: string): RecordKey | undefined {
  const parts = name.split(',');
  if (parts.length > 2) return undefined;
  try {
    const key = decodeURIComponent(parts[0]);
    return parts.length === 1 ? { key } : { key, version: decodeURIComponent(parts[1]) };
  } catch {
    return undefined;
  }
}

/** What the store writes for the marker znode: whose it is and the format of every record below. */
export function formatMarker(format: number): Buffer {
  return Buffer.from(JSON.stringify({ store: 'pacer', format }));
}

/** The format a marker names, or undefined when it is not pacer's marker. */
export function formatOfMarker(data: Buffer): number | undefined {
  try {
    const parsed = JSON.parse(data.toString('utf8')) as { store?: unknown; format?: unknown };
    return parsed.store === 'pacer' && Number.isInteger(parsed.format) ? parsed.format as number : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Largest data pacer puts in one znode, and in one `multi` (ZooKeeper refuses a request above
 * `jute.maxbuffer`, 1 MiB by default — Marathon's root groups failed at that limit). Records up to
 * {@link INLINE_MAX_BYTES} are stored as they are; larger ones gzip-compressed; compressed ones
 * still above {@link NODE_MAX_BYTES} in chunks of that size.
 */
export const NODE_MAX_BYTES = 512 * 1024;
export const INLINE_MAX_BYTES = 64 * 1024;

/** The first byte of a record znode: how the rest holds the record's text. */
const PLAIN = 0x6a; // 'j': UTF-8 text
const GZIP = 0x7a; // 'z': gzip of the UTF-8 text
const CHUNKED = 0x63; // 'c': JSON {chunks: [names]}; the gzip of the text is their concatenation

/** A record's znode data, plus the chunk znodes (name → data) to write before it when it is chunked. */
export interface Payload {
  readonly data: Buffer;
  readonly chunks: readonly { readonly name: string; readonly data: Buffer }[];
}

/** The znode data of a record's text; `chunkPrefix` names its chunks (unique per write). */
export function encodePayload(text: string, chunkPrefix: string): Payload {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= INLINE_MAX_BYTES) return { data: Buffer.concat([Buffer.of(PLAIN), bytes]), chunks: [] };
  const gz = gzipSync(bytes);
  if (gz.length + 1 <= NODE_MAX_BYTES) return { data: Buffer.concat([Buffer.of(GZIP), gz]), chunks: [] };
  const chunks: { name: string; data: Buffer }[] = [];
  for (let i = 0; i * NODE_MAX_BYTES < gz.length; i++) {
    chunks.push({ name: `${chunkPrefix},${i}`, data: gz.subarray(i * NODE_MAX_BYTES, (i + 1) * NODE_MAX_BYTES) });
  }
  return { data: Buffer.concat([Buffer.of(CHUNKED), Buffer.from(JSON.stringify({ chunks: chunks.map((c) => c.name) }))]), chunks };
}

/** The chunk names a record's znode data refers to (none unless chunked; none for data that is not ours). */
export function chunksOf(data: Buffer): string[] {
  if (data.length === 0 || data[0] !== CHUNKED) return [];
  try {
    const header = JSON.parse(data.subarray(1).toString('utf8')) as { chunks?: unknown };
    return Array.isArray(header.chunks) ? header.chunks.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** A record's text from its znode data (`chunk` reads a chunk by name). Throws on data this store never writes. */
export async function decodePayload(data: Buffer, chunk: (name: string) => Promise<Buffer>): Promise<string> {
  if (data.length === 0) throw new Error('empty znode');
  const body = data.subarray(1);
  switch (data[0]) {
    case PLAIN: return body.toString('utf8');
    case GZIP: return gunzipSync(body).toString('utf8');
    case CHUNKED: {
      const names = chunksOf(data);
      if (names.length === 0) throw new Error('chunked record without chunks');
      const parts: Buffer[] = [];
      for (const name of names) parts.push(await chunk(name));
      return gunzipSync(Buffer.concat(parts)).toString('utf8');
    }
    default: throw new Error(`unknown record encoding 0x${data[0].toString(16)}`);
  }
}
