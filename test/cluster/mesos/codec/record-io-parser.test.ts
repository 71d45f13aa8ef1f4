import seedrandom from 'seedrandom';
import t from 'tap';
import { MesosCodecError } from '../../../../src/cluster/mesos/codec/mesos-codec-error';
import { encodeRecord } from '../../../../src/cluster/mesos/recordio/encode-record';
import { RecordIoParser } from '../../../../src/cluster/mesos/recordio/record-io-parser';
import { listSamples, readSample } from './sample-files';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** Splits a buffer into chunks of random sizes (1..maxChunkBytes), reproducibly from a seed. */
function randomChunks(buffer: Uint8Array, seed: string, maxChunkBytes: number): Uint8Array[] {
  const random = seedrandom(seed);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < buffer.length; ) {
    const size = 1 + Math.floor(random() * maxChunkBytes);
    chunks.push(buffer.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

function parseAll(chunks: Uint8Array[], parser = new RecordIoParser()): Uint8Array[] {
  const records = chunks.flatMap((chunk) => parser.push(chunk));
  parser.finish();
  return records;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** Each recorded stream with the per-record files it must split into. */
const STREAMS = [
  { stream: 'pb/event-stream.recordio', recordsDir: 'pb/events', extension: '.bin' },
  { stream: 'pb/failover/old-stream.recordio', recordsDir: 'pb/failover/old-stream', extension: '.bin' },
  { stream: 'pb/failover/new-stream.recordio', recordsDir: 'pb/failover/new-stream', extension: '.bin' },
];

function expectedRecords(recordsDir: string, extension: string): Uint8Array[] {
  return listSamples(recordsDir, extension).map((name) => readSample(`${recordsDir}/${name}`));
}

t.test('recorded protobuf streams split into exactly the recorded records, in order', async (t) => {
  for (const { stream, recordsDir, extension } of STREAMS) {
    const want = expectedRecords(recordsDir, extension);
    t.ok(want.length > 0, `${recordsDir} has records`);
    t.same(parseAll([readSample(stream)]), want, `${stream} in one chunk`);
    t.same(parseAll(randomChunks(readSample(stream), stream, 1)), want, `${stream} byte by byte`);
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      t.same(parseAll(randomChunks(readSample(stream), seed, 700)), want, `${stream} in random chunks, seed ${seed}`);
    }
  }
});

t.test('the recorded protobuf stream has 62 records and re-frames to the same bytes', async (t) => {
  const records = parseAll([readSample('pb/event-stream.recordio')]);
  t.equal(records.length, 62);
  t.same(concat(records.map(encodeRecord)), readSample('pb/event-stream.recordio'));
});

t.test('recorded JSON streams split into records equal to the (pretty-printed) event files', async (t) => {
  const jsonStreams = [
    { stream: 'json/event-stream.recordio', recordsDir: 'json/events' },
    { stream: 'json/failover/old-stream.recordio', recordsDir: 'json/failover/old-stream' },
    { stream: 'json/failover/new-stream.recordio', recordsDir: 'json/failover/new-stream' },
  ];
  for (const { stream, recordsDir } of jsonStreams) {
    const want = expectedRecords(recordsDir, '.json').map((record) => JSON.parse(Buffer.from(record).toString('utf8')));
    const got = parseAll(randomChunks(readSample(stream), stream, 300));
    t.same(got.map((record) => JSON.parse(Buffer.from(record).toString('utf8'))), want, stream);
  }
});

t.test('framing edge cases', async (t) => {
  const heartbeat = bytes(0x08, 0x08);
  const cases: { name: string; chunks: Uint8Array[]; want: Uint8Array[] }[] = [
    { name: 'a HEARTBEAT frame is "2\\n\\x08\\x08"', chunks: [bytes(0x32, 0x0a, 0x08, 0x08)], want: [heartbeat] },
    { name: 'several records in one chunk', chunks: [text('2\n\b\b3\nabc1\nz')], want: [heartbeat, text('abc'), text('z')] },
    { name: 'a length prefix split across chunks', chunks: [text('1'), text('0'), text('\n0123456789')], want: [text('0123456789')] },
    { name: 'a zero-length record is skipped', chunks: [text('0\n2\n\b\b')], want: [heartbeat] },
    { name: 'leading zeros are digits like any other', chunks: [text('002\n\b\b')], want: [heartbeat] },
    { name: 'no chunk at all', chunks: [], want: [] },
    { name: 'an empty chunk', chunks: [new Uint8Array(0), text('1\nx')], want: [text('x')] },
  ];
  for (const { name, chunks, want } of cases) t.same(parseAll(chunks), want, name);
});

t.test('lengths count bytes, not characters', async (t) => {
  const payload = text('{"message":"é — ünïcode"}');
  t.not(payload.length, '{"message":"é — ünïcode"}'.length);
  const record = encodeRecord(payload);
  t.same(Buffer.from(record).toString('utf8'), `${payload.length}\n{"message":"é — ünïcode"}`);
  t.same(parseAll(randomChunks(record, 'utf8', 3)), [payload]);
});

t.test('records are fresh copies, independent of the pushed chunk', async (t) => {
  const chunk = text('3\nabc');
  const [record] = new RecordIoParser().push(chunk);
  chunk.fill(0);
  t.same(record, text('abc'));
});

t.test('malformed length prefixes are errors', async (t) => {
  const cases: { name: string; input: string; match: RegExp }[] = [
    { name: 'a letter', input: 'x\n', match: /invalid byte 0x78/ },
    { name: 'a minus sign', input: '-1\n', match: /invalid byte 0x2d/ },
    { name: 'JSON without framing', input: '{"type":"HEARTBEAT"}', match: /invalid byte 0x7b/ },
    { name: 'a space', input: '2 \n\b\b', match: /invalid byte 0x20/ },
    { name: 'a CR LF line end', input: '2\r\n\b\b', match: /invalid byte 0x0d/ },
    { name: 'an empty length', input: '\n', match: /empty length prefix/ },
    { name: 'a length over the limit', input: '1025\n', match: /exceeds the limit of 1024 bytes/ },
    { name: 'more than 20 digits', input: '000000000000000000001\n', match: /exceeds the limit/ },
  ];
  for (const { name, input, match } of cases) {
    const parser = new RecordIoParser(1024);
    t.throws(() => parser.push(text(input)), match, name);
  }
});

t.test('an error is sticky: the stream cannot be framed any more', async (t) => {
  const parser = new RecordIoParser();
  t.throws(() => parser.push(text('1\nax\n')), MesosCodecError);
  t.throws(() => parser.push(text('1\na')), /invalid byte 0x78/);
  t.throws(() => parser.finish(), /invalid byte 0x78/);
});

t.test('an oversized length is rejected before its payload is buffered', async (t) => {
  const parser = new RecordIoParser(10);
  t.throws(() => parser.push(text('99')), /exceeds the limit of 10 bytes/);
});

t.test('finish reports a stream that ended inside a record', async (t) => {
  const midPayload = new RecordIoParser();
  t.same(midPayload.push(text('5\nab')), []);
  t.ok(midPayload.midRecord);
  t.throws(() => midPayload.finish(), /stream ended inside a record \(2 of 5 bytes\)/);

  const midLength = new RecordIoParser();
  midLength.push(text('1\na12'));
  t.ok(midLength.midRecord);
  t.throws(() => midLength.finish(), /inside a length prefix/);

  const clean = new RecordIoParser();
  clean.push(text('1\na'));
  t.notOk(clean.midRecord);
  t.doesNotThrow(() => clean.finish());
});
