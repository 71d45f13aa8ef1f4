import t from 'tap';
import { leaderZnode } from '../../../../src/cluster/mesos/zk/leader-znode';
import { masterUrlFromInfo } from '../../../../src/cluster/mesos/zk/master-url-from-info';
import { masterInfoJson } from './master-info-json';

t.test('leaderZnode picks the lowest json.info_ sequence, numerically, ignoring other children', async (t) => {
  const cases: Array<{ children: string[]; leader: string | undefined }> = [
    { children: ['json.info_0000000007', 'json.info_0000000003', 'json.info_0000000012'], leader: 'json.info_0000000003' },
    { children: ['info_0000000001', 'json.info_0000000002', 'log_replicas'], leader: 'json.info_0000000002' },
    { children: ['json.info_10000000000', 'json.info_9999999999'], leader: 'json.info_9999999999' },
    { children: ['info_0000000001', 'info_0000000002'], leader: undefined },
    { children: ['json.info_', 'json.info_x1', 'xjson.info_0000000001'], leader: undefined },
    { children: [], leader: undefined },
  ];
  for (const c of cases) t.equal(leaderZnode(c.children), c.leader, c.children.join(',') || '(none)');
});

t.test('masterUrlFromInfo locates the master as spec §1.9 says', async (t) => {
  const cases: Array<{ name: string; info: unknown; url: string }> = [
    { name: 'a Mesos 1.x MasterInfo', info: JSON.parse(masterInfoJson('m1.example', '10.0.0.1', 5050)), url: 'http://m1.example:5050' },
    { name: 'ip when no hostname', info: { address: { ip: '10.0.0.2', port: 5051 } }, url: 'http://10.0.0.2:5051' },
    { name: 'IPv6 bracketed', info: { address: { ip: 'fd00::1', port: 5050 } }, url: 'http://[fd00::1]:5050' },
    { name: 'deprecated top-level hostname/port', info: { hostname: 'old', port: 5050, ip: 16777343 }, url: 'http://old:5050' },
    { name: 'libprocess pid as a last resort', info: { pid: 'master@10.0.0.3:5052' }, url: 'http://10.0.0.3:5052' },
    { name: 'empty hostname skipped', info: { address: { hostname: '', ip: '10.0.0.4', port: 5050 } }, url: 'http://10.0.0.4:5050' },
  ];
  for (const c of cases) t.equal(masterUrlFromInfo(Buffer.from(JSON.stringify(c.info)), '/mesos/json.info_1'), c.url, c.name);
  t.equal(masterUrlFromInfo(Buffer.from(masterInfoJson('m', '1.2.3.4', 5050)), '/z', 'https'), 'https://m:5050', 'scheme');
});

t.test('masterUrlFromInfo refuses data that locates no master', async (t) => {
  const cases: Array<{ name: string; data: string; reason: RegExp }> = [
    { name: 'protobuf bytes', data: '\n\x0bmaster@1.2.3.4', reason: /not JSON/ },
    { name: 'a JSON array', data: '[1]', reason: /not a JSON object/ },
    { name: 'address not an object', data: '{"address":5}', reason: /"address" is not an object/ },
    { name: 'no port', data: '{"address":{"hostname":"m"}}', reason: /names no master host and port/ },
    { name: 'port out of range', data: '{"address":{"hostname":"m","port":70000}}', reason: /names no master host and port/ },
    { name: 'empty object', data: '{}', reason: /names no master host and port/ },
  ];
  for (const c of cases) {
    t.throws(() => masterUrlFromInfo(Buffer.from(c.data), '/mesos/json.info_1'),
      { name: 'ZkError', kind: 'MALFORMED_MASTER_INFO', message: /\/mesos\/json\.info_1/ }, c.name);
    t.throws(() => masterUrlFromInfo(Buffer.from(c.data), '/mesos/json.info_1'), { message: c.reason }, `${c.name}: reason`);
  }
});
