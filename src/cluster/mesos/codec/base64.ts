import { MesosCodecError } from './mesos-codec-error';

/** Standard base64 with padding, the only form Mesos's JSON uses for `bytes` (spec §1.2). */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes padded standard base64; anything else throws MesosCodecError. */
export function decodeBase64(text: string, path: string): Uint8Array {
  if (!STANDARD_BASE64.test(text)) throw new MesosCodecError('expected standard padded base64 bytes', path);
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** Encodes bytes as padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
