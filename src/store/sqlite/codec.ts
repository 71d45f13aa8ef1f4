/**
 * The store's codec: the core's objects ⇄ JSON text.
 *
 * Plain JSON cannot hold everything the core keeps: a Group's children are `ReadonlyMap`s whose
 * insertion order is the tree's iteration order, and a few numbers (Infinity, NaN, -0) have no JSON
 * form. Those values are written as single-key tagged objects:
 *
 * | value                     | encoded as                          |
 * | ------------------------- | ----------------------------------- |
 * | `Map`                     | `{"$map": [[key, value], …]}` (insertion order) |
 * | `Set`                     | `{"$set": [value, …]}` (insertion order) |
 * | `Infinity`, `NaN`, `-0`   | `{"$num": "Infinity"}` …            |
 * | `undefined` in an array   | `{"$undefined": 1}`                 |
 * | a plain object that looks like a tag | `{"$obj": {…}}` (escaped) |
 *
 * `undefined` object fields are dropped (the core's optional fields are absent, not undefined, so
 * `decode(encode(x))` deep-equals `x`). A class instance whose `toJSON()` gives a plain object (the
 * core's Instance, model/instance.ts: its record with its tasks) is encoded as that object, and
 * decodes to it: a plain record, which the core takes back as an instance at recovery
 * (recover-state.ts). Anything else that JSON would silently change — another class instance
 * (Date, whose `toJSON` gives a string …), a function, a symbol, a bigint — is refused with an
 * Error rather than stored wrongly.
 */

/** A JSON-representable value (what {@link toJsonTree} produces and JSON.parse returns). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const MAP_TAG = '$map';
const SET_TAG = '$set';
const NUM_TAG = '$num';
const UNDEFINED_TAG = '$undefined';
const OBJ_TAG = '$obj';
const TAGS: ReadonlySet<string> = new Set([MAP_TAG, SET_TAG, NUM_TAG, UNDEFINED_TAG, OBJ_TAG]);

/** Encode a value the core stores into JSON text (see the module comment for the tags). */
export function encode(value: unknown): string {
  return JSON.stringify(encodeTree(value));
}

/** Decode text written by {@link encode}. Throws on text that is not JSON or a malformed tag. */
export function decode(text: string): unknown {
  return decodeTree(JSON.parse(text) as JsonValue);
}

/** The JSON tree {@link encode} writes as text (for records that embed a codec value in a larger record). */
export function encodeTree(value: unknown): JsonValue {
  return toJsonTree(value, '$');
}

/** The value a tree written by {@link encodeTree} stands for (a fresh copy). Throws on a malformed tag. */
export function decodeTree(tree: JsonValue): unknown {
  return fromJsonTree(tree);
}

/** The JSON tree of `value`; `at` names the position for error messages (`$.tasks[0]`). */
function toJsonTree(value: unknown, at: string): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return encodeNumber(value);
    case 'object':
      return value === null ? null : encodeObject(value, at);
    default:
      throw new Error(`codec: cannot encode a ${typeof value} at ${at}`);
  }
}

function encodeNumber(n: number): JsonValue {
  if (Number.isFinite(n) && !Object.is(n, -0)) return n;
  return { [NUM_TAG]: Object.is(n, -0) ? '-0' : String(n) };
}

function encodeObject(value: object, at: string): JsonValue {
  if (Array.isArray(value)) return value.map((v: unknown, i) => encodeElement(v, `${at}[${i}]`));
  if (value instanceof Map) return { [MAP_TAG]: [...(value as Map<unknown, unknown>)].map(([k, v], i) => encodeEntry(k, v, at, i)) };
  if (value instanceof Set) return { [SET_TAG]: [...(value as Set<unknown>)].map((v, i) => toJsonTree(v, `${at}{${i}}`)) };
  if (!isPlain(value)) {
    const plain = plainJsonOf(value);
    if (plain === undefined) throw new Error(`codec: cannot encode an instance of ${value.constructor.name} at ${at}`);
    return encodePlain(plain, at);
  }
  return encodePlain(value as Record<string, unknown>, at);
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** What a class instance's `toJSON()` gives, when that is a plain object; undefined otherwise. */
function plainJsonOf(value: object): Record<string, unknown> | undefined {
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return undefined;
  const json: unknown = toJSON.call(value);
  return typeof json === 'object' && json !== null && !Array.isArray(json) && isPlain(json) ? json as Record<string, unknown> : undefined;
}

/** An array element: JSON would turn `undefined` into null, so it is tagged. */
function encodeElement(v: unknown, at: string): JsonValue {
  return v === undefined ? { [UNDEFINED_TAG]: 1 } : toJsonTree(v, at);
}

function encodeEntry(key: unknown, value: unknown, at: string, index: number): JsonValue {
  return [toJsonTree(key, `${at}<key ${index}>`), toJsonTree(value, `${at}<${String(key)}>`)];
}

function encodePlain(value: Record<string, unknown>, at: string): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = toJsonTree(v, `${at}.${k}`);
  }
  return looksLikeTag(out) ? { [OBJ_TAG]: out } : out;
}

/** A single-key object whose key is a tag would be misread on decode: it gets escaped. */
function looksLikeTag(obj: { [key: string]: JsonValue }): boolean {
  const keys = Object.keys(obj);
  return keys.length === 1 && TAGS.has(keys[0]);
}

/** The value a JSON tree written by {@link toJsonTree} stands for. */
function fromJsonTree(tree: JsonValue): unknown {
  if (tree === null || typeof tree !== 'object') return tree;
  if (Array.isArray(tree)) return tree.map(fromJsonTree);
  const keys = Object.keys(tree);
  if (keys.length === 1 && TAGS.has(keys[0])) return decodeTag(keys[0], tree[keys[0]]);
  return decodePlain(tree);
}

function decodePlain(tree: { [key: string]: JsonValue }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) out[k] = fromJsonTree(v);
  return out;
}

function decodeTag(tag: string, body: JsonValue): unknown {
  switch (tag) {
    case MAP_TAG:
      return new Map(arrayOf(tag, body).map((entry) => mapEntry(entry)));
    case SET_TAG:
      return new Set(arrayOf(tag, body).map(fromJsonTree));
    case NUM_TAG:
      return decodeNumber(body);
    case UNDEFINED_TAG:
      return undefined;
    default: // OBJ_TAG: an escaped plain object; its own keys are not a tag.
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw malformed(tag);
      return decodePlain(body);
  }
}

function arrayOf(tag: string, body: JsonValue): JsonValue[] {
  if (!Array.isArray(body)) throw malformed(tag);
  return body;
}

function mapEntry(entry: JsonValue): [unknown, unknown] {
  if (!Array.isArray(entry) || entry.length !== 2) throw malformed(MAP_TAG);
  return [fromJsonTree(entry[0]), fromJsonTree(entry[1])];
}

function decodeNumber(body: JsonValue): number {
  switch (body) {
    case 'Infinity': return Infinity;
    case '-Infinity': return -Infinity;
    case 'NaN': return NaN;
    case '-0': return -0;
    default: throw malformed(NUM_TAG);
  }
}

function malformed(tag: string): Error {
  return new Error(`codec: malformed ${tag} value`);
}
