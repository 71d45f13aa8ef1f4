import type { Type } from 'protobufjs';
import { jsonTextWithLongs, quoteLongIntegers } from './json-long-integers';
import { JSON_VALUE_READER } from './json-value-reader';
import { JSON_VALUE_WRITER } from './json-value-writer';
import { MesosCodecError } from './mesos-codec-error';
import type { MesosFormat } from './mesos-model';
import { PROTOBUF_VALUE_READER } from './protobuf-value-reader';
import { PROTOBUF_VALUE_WRITER } from './protobuf-value-writer';
import { readMessage, type ModelMessage } from './read-message';
import { writeMessage } from './write-message';

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseProtobuf(type: Type, body: Uint8Array): Record<string, unknown> {
  try {
    return type.decode(body) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new MesosCodecError(`malformed protobuf ${type.fullName.slice(1)}: ${errorText(error)}`);
  }
}

function parseJson(type: Type, body: Uint8Array): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteLongIntegers(utf8Decoder.decode(body)));
  } catch (error) {
    throw new MesosCodecError(`malformed JSON ${type.fullName.slice(1)}: ${errorText(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MesosCodecError(`malformed JSON ${type.fullName.slice(1)}: not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Decodes one message body — binary protobuf or Mesos JSON (UTF-8) — into model form.
 * Malformed input, values of the wrong type and missing required fields throw MesosCodecError;
 * unknown fields and enum values are skipped.
 */
export function decodeMessage(type: Type, body: Uint8Array, format: MesosFormat): ModelMessage {
  return format === 'protobuf'
    ? readMessage(type, parseProtobuf(type, body), PROTOBUF_VALUE_READER, type.name)
    : readMessage(type, parseJson(type, body), JSON_VALUE_READER, type.name);
}

/**
 * Encodes a model message as binary protobuf or as Mesos JSON (UTF-8, compact, snake_case keys).
 * Throws MesosCodecError when the model lacks a required field or holds a value of the wrong type.
 */
export function encodeMessage(type: Type, model: object, format: MesosFormat): Uint8Array {
  const source = model as Record<string, unknown>;
  if (format === 'protobuf') {
    const bytes = type.encode(writeMessage(type, source, PROTOBUF_VALUE_WRITER, type.name)).finish();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return utf8Encoder.encode(jsonTextWithLongs(writeMessage(type, source, JSON_VALUE_WRITER, type.name)));
}
