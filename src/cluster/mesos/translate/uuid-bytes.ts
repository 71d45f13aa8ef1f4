const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A status update's `uuid` bytes as the core's `TaskStatus.uuid` string: standard base64 with
 * padding — exactly the form Mesos's JSON uses for `bytes` fields (mesos-v1-scheduler-api.md
 * §1.2), so a uuid received as JSON and one received as protobuf read the same.
 */
export function uuidFromBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * The raw bytes of a core uuid string, for ACKNOWLEDGE (§2.10: the uuid must be echoed exactly as
 * received). Inverse of {@link uuidFromBytes}. Throws on a string that is not padded standard
 * base64: acknowledging garbage would be answered 400 and the update would stay unacknowledged.
 */
export function uuidToBytes(uuid: string): Uint8Array {
  if (!BASE64.test(uuid)) throw new Error(`not a base64 status uuid: ${JSON.stringify(uuid)}`);
  return new Uint8Array(Buffer.from(uuid, 'base64'));
}
