import t from 'tap';
import { describeZkUrl, parseZkUrl } from '../../../../src/cluster/mesos/zk/zk-url';
import type { ZkUrl } from '../../../../src/cluster/mesos/zk/zk-url';

/** The message `run` throws with ('' when it does not throw). */
function messageOf(run: () => unknown): string {
  try {
    run();
    return '';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

t.test('parseZkUrl accepts the forms Mesos and Marathon document', async (t) => {
  const cases: Array<{ url: string; parsed: ZkUrl }> = [
    { url: 'zk://zk1:2181/mesos', parsed: { servers: [{ host: 'zk1', port: 2181 }], path: '/mesos' } },
    { url: 'zk://zk1/mesos', parsed: { servers: [{ host: 'zk1', port: 2181 }], path: '/mesos' } },
    {
      url: 'zk://10.0.0.1:2181,10.0.0.2:2182, zk3/mesos/',
      parsed: { servers: [{ host: '10.0.0.1', port: 2181 }, { host: '10.0.0.2', port: 2182 }, { host: 'zk3', port: 2181 }], path: '/mesos' },
    },
    { url: 'zk://[::1]:2181,[fe80::2]/a/b', parsed: { servers: [{ host: '::1', port: 2181 }, { host: 'fe80::2', port: 2181 }], path: '/a/b' } },
    { url: 'zk://h:1', parsed: { servers: [{ host: 'h', port: 1 }], path: '/' } },
    {
      url: 'zk://mesos:s3cr@t:x@h1:2181,h2:2181/mesos',
      parsed: { servers: [{ host: 'h1', port: 2181 }, { host: 'h2', port: 2181 }], path: '/mesos', digest: { user: 'mesos', password: 's3cr@t:x' } },
    },
  ];
  for (const c of cases) t.strictSame(parseZkUrl(c.url), c.parsed, c.url);
});

t.test('parseZkUrl refuses malformed URLs with BAD_URL and never echoes the password', async (t) => {
  const cases: Array<{ url: string; reason: RegExp }> = [
    { url: 'http://h:5050', reason: /must start with zk:\/\// },
    { url: 'zk:///mesos', reason: /names no ZooKeeper server/ },
    { url: 'zk://h1,,h2/mesos', reason: /"" is not host\[:port\]/ },
    { url: 'zk://h1:port/mesos', reason: /"h1:port" is not host\[:port\]/ },
    { url: 'zk://h1:70000/mesos', reason: /out of range/ },
    { url: 'zk://h1/mesos//x', reason: /not a valid znode path/ },
    { url: 'zk://h1/mesos/../x', reason: /not a valid znode path/ },
    { url: 'zk://nopassword@h1/mesos', reason: /user:password@/ },
    { url: 'zk://u:hunter2@h1:x/mesos', reason: /is not host/ },
    { url: 'zk://u:hunter2@/mesos', reason: /names no ZooKeeper server/ },
    { url: 'http://u:hunter2@h1:2181/mesos', reason: /^bad ZooKeeper URL http:\/\/xxxxxxxx@h1:2181\/mesos: it must start with zk:\/\// },
    { url: 'u:hunter2@h1:2181/mesos', reason: /^bad ZooKeeper URL xxxxxxxx@h1:2181\/mesos: it must start with zk:\/\// },
  ];
  for (const c of cases) {
    t.throws(() => parseZkUrl(c.url), { name: 'ZkError', kind: 'BAD_URL', message: c.reason }, c.url);
    t.notMatch(messageOf(() => parseZkUrl(c.url)), /hunter2/, `${c.url}: no password in the message`);
  }
});

t.test('describeZkUrl round-trips servers and path and hides credentials', async (t) => {
  t.equal(describeZkUrl(parseZkUrl('zk://h1,[::1]:2182/mesos')), 'zk://h1:2181,[::1]:2182/mesos');
  t.equal(describeZkUrl(parseZkUrl('zk://u:hunter2@h1:2181/mesos')), 'zk://xxxxxxxx@h1:2181/mesos');
});
