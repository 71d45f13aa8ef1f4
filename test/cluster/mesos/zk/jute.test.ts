import t from 'tap';
import { JuteReader } from '../../../../src/cluster/mesos/zk/jute-reader';
import { JuteWriter } from '../../../../src/cluster/mesos/zk/jute-writer';
import { PacketSplitter } from '../../../../src/cluster/mesos/zk/packet-splitter';
import { ZkError } from '../../../../src/cluster/mesos/zk/zk-error';
import {
  decodeConnectResponse, decodeGetChildrenResponse, decodeGetDataResponse, decodeReplyHeader, encodeAuthPacket,
  encodeConnectRequest, encodePathRequest, encodeRequest, framePacket,
} from '../../../../src/cluster/mesos/zk/zk-messages';
import { OpCode } from '../../../../src/cluster/mesos/zk/zk-protocol';

/** Bytes from hex, spaces ignored, so that expectations read field by field. */
const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const ascii = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const zeros = (count: number): string => '00'.repeat(count);

t.test('JuteWriter primitives are big-endian and length-prefixed, null is -1', async (t) => {
  const cases: Array<{ name: string; write: (w: JuteWriter) => JuteWriter; bytes: string }> = [
    { name: 'int', write: (w) => w.int(0x01020304), bytes: '01020304' },
    { name: 'negative int', write: (w) => w.int(-11), bytes: 'fffffff5' },
    { name: 'long', write: (w) => w.long(0x0102030405060708n), bytes: '0102030405060708' },
    { name: 'negative long', write: (w) => w.long(-1n), bytes: 'ffffffffffffffff' },
    { name: 'bool true/false', write: (w) => w.bool(true).bool(false), bytes: '01 00' },
    { name: 'ustring', write: (w) => w.ustring('/mesos'), bytes: `00000006 ${ascii('/mesos')}` },
    { name: 'ustring utf-8 length in bytes', write: (w) => w.ustring('é'), bytes: '00000002 c3a9' },
    { name: 'null ustring', write: (w) => w.ustring(null), bytes: 'ffffffff' },
    { name: 'buffer', write: (w) => w.buffer(Buffer.from([9, 8])), bytes: '00000002 0908' },
    { name: 'null buffer', write: (w) => w.buffer(null), bytes: 'ffffffff' },
  ];
  for (const c of cases) t.strictSame(c.write(new JuteWriter()).bytes(), hex(c.bytes), c.name);
});

t.test('JuteReader reads what the writer wrote', async (t) => {
  const bytes = new JuteWriter().int(-7).long(1n << 40n).bool(true).ustring('ok').ustring(null).buffer(null).bytes();
  const reader = new JuteReader(bytes);
  t.equal(reader.int(), -7);
  t.equal(reader.long(), 1n << 40n);
  t.equal(reader.bool(), true);
  t.equal(reader.ustring(), 'ok');
  t.equal(reader.ustring(), null);
  t.equal(reader.buffer(), null);
  t.equal(reader.remaining, 0);
});

t.test('JuteReader refuses truncated and corrupt input with a PROTOCOL ZkError', async (t) => {
  const cases: Array<{ name: string; bytes: string; read: (r: JuteReader) => unknown }> = [
    { name: 'short int', bytes: '000000', read: (r) => r.int() },
    { name: 'short long', bytes: '00000000000000', read: (r) => r.long() },
    { name: 'string longer than the message', bytes: `00000009 ${ascii('abc')}`, read: (r) => r.ustring() },
    { name: 'negative length other than -1', bytes: 'fffffffe', read: (r) => r.buffer() },
    { name: 'vector count beyond the message', bytes: '7fffffff', read: (r) => r.ustringVector() },
  ];
  for (const c of cases) {
    t.throws(() => c.read(new JuteReader(hex(c.bytes))), { name: 'ZkError', kind: 'PROTOCOL' }, c.name);
  }
});

t.test('ConnectRequest for a new session, framed', async (t) => {
  const expected = hex(`0000002d
    00000000 ${zeros(8)} 00002710 ${zeros(8)}
    00000010 ${zeros(16)}
    00`);
  t.strictSame(framePacket(encodeConnectRequest({ sessionTimeoutMs: 10_000 })), expected);
});

t.test('ConnectResponse with and without the read-only byte', async (t) => {
  const body = `00000000 00001f40 0000000100000abc 00000010 ${'01'.repeat(16)}`;
  t.strictSame(decodeConnectResponse(hex(`${body} 01`)), {
    protocolVersion: 0, sessionTimeoutMs: 8000, sessionId: 0x100000abcn, password: Buffer.alloc(16, 1), readOnly: true,
  });
  t.strictSame(decodeConnectResponse(hex(body)), {
    protocolVersion: 0, sessionTimeoutMs: 8000, sessionId: 0x100000abcn, password: Buffer.alloc(16, 1),
  });
});

t.test('getChildren and getData requests: header {xid, type} then {path, watch}', async (t) => {
  t.strictSame(framePacket(encodeRequest(1, OpCode.getChildren, encodePathRequest('/mesos', false))),
    hex(`00000013 00000001 00000008 00000006 ${ascii('/mesos')} 00`));
  t.strictSame(encodeRequest(258, OpCode.getData, encodePathRequest('/m', true)),
    hex(`00000102 00000004 00000002 ${ascii('/m')} 01`));
});

t.test('ping, closeSession and auth packets', async (t) => {
  t.strictSame(encodeRequest(-2, OpCode.ping), hex('fffffffe 0000000b'));
  t.strictSame(encodeRequest(5, OpCode.closeSession), hex('00000005 fffffff5'));
  t.strictSame(encodeRequest(-4, OpCode.auth, encodeAuthPacket('digest', 'user:pass')),
    hex(`fffffffc 00000064 00000000 00000006 ${ascii('digest')} 00000009 ${ascii('user:pass')}`));
});

t.test('a getChildren reply: ReplyHeader then vector<ustring>', async (t) => {
  const reader = new JuteReader(hex(`00000001 0000000000000010 00000000
    00000002 00000014 ${ascii('json.info_0000000003')} 00000004 ${ascii('info')}`));
  t.strictSame(decodeReplyHeader(reader), { xid: 1, zxid: 16n, err: 0 });
  t.strictSame(decodeGetChildrenResponse(reader), ['json.info_0000000003', 'info']);
});

t.test('an error reply carries the code and no body', async (t) => {
  const reader = new JuteReader(hex('00000007 0000000000000001 ffffff9b'));
  t.strictSame(decodeReplyHeader(reader), { xid: 7, zxid: 1n, err: -101 });
  t.equal(reader.remaining, 0);
});

t.test('a getData reply: buffer then the 68-byte Stat', async (t) => {
  const stat = `${'0000000000000001'} ${'0000000000000002'} ${'0000017f00000000'} ${'0000017f00000001'}
    00000003 00000004 00000005 ${'00000000deadbeef'} 00000002 00000000 ${'0000000000000009'}`;
  t.equal(hex(stat).length, 68);
  const decoded = decodeGetDataResponse(new JuteReader(hex(`00000002 7b7d ${stat}`)));
  t.strictSame(decoded.data, Buffer.from('{}'));
  t.strictSame(decoded.stat, {
    czxid: 1n, mzxid: 2n, ctimeMs: 0x17f00000000n, mtimeMs: 0x17f00000001n, version: 3, cversion: 4, aversion: 5,
    ephemeralOwner: 0xdeadbeefn, dataLength: 2, numChildren: 0, pzxid: 9n,
  });
});

t.test('PacketSplitter cuts packets out of arbitrary TCP chunks', async (t) => {
  const stream = Buffer.concat([framePacket(hex('aabb')), framePacket(hex('')), framePacket(hex('cc'))]);
  const splitter = new PacketSplitter();
  const packets = [...stream].flatMap((byte) => splitter.push(Buffer.from([byte])));
  t.strictSame(packets, [hex('aabb'), hex(''), hex('cc')], 'byte by byte');
  t.strictSame(new PacketSplitter().push(stream), [hex('aabb'), hex(''), hex('cc')], 'all at once');
  t.throws(() => new PacketSplitter().push(hex('ffffffff')), ZkError, 'negative length');
  t.throws(() => new PacketSplitter(10).push(hex('0000000b')), ZkError, 'length beyond the bound');
});
