const asciiEncoder = new TextEncoder();

/**
 * Frames one payload as a RecordIO record (spec §1.4): its length in bytes as ASCII decimal, a
 * line feed, then the payload — no trailing newline. Used by fake masters and tests.
 */
export function encodeRecord(payload: Uint8Array): Uint8Array {
  const prefix = asciiEncoder.encode(`${payload.byteLength}\n`);
  const record = new Uint8Array(prefix.length + payload.byteLength);
  record.set(prefix, 0);
  record.set(payload, prefix.length);
  return record;
}
