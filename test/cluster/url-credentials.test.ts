import t from 'tap';
import { CREDENTIALS_MASK, redactCredentials, redactUrlValue } from '../../src/cluster/url-credentials';

t.test('redactCredentials hides the credentials of every URL in a text, and nothing else', async (t) => {
  const cases: [string, string][] = [
    ['zk://u:p@h:2181/mesos', 'zk://xxxxxxxx@h:2181/mesos'],
    ['zk://u:p@h1:2181,h2:2181/mesos', 'zk://xxxxxxxx@h1:2181,h2:2181/mesos'],
    ['zk://h:2181/mesos', 'zk://h:2181/mesos'],
    ['http://master:5050', 'http://master:5050'],
    ['sim://test', 'sim://test'],
    ['http://ops:hunter2@master:5050', 'http://xxxxxxxx@master:5050'],
    ['HTTPS://ops:hunter2@master:5050/api', 'HTTPS://xxxxxxxx@master:5050/api'],
    ['zk://u:p@ss@h/mesos', 'zk://xxxxxxxx@h/mesos'],
    ['zk://u:pa/ss@h/mesos', 'zk://xxxxxxxx@h/mesos'],
    ['subscribed to http://ops:hunter2@m:5050 as framework f-1; zk://a:b@z/p is gone', 'subscribed to http://xxxxxxxx@m:5050 as framework f-1; zk://xxxxxxxx@z/p is gone'],
    ['no URL here, mail ops@example.com', 'no URL here, mail ops@example.com'],
    ['', ''],
  ];
  for (const [text, expected] of cases) t.equal(redactCredentials(text), expected, text);
  t.equal(CREDENTIALS_MASK, 'xxxxxxxx', 'Marathon\'s mask');
});

t.test('redactUrlValue also hides credentials written without a scheme', async (t) => {
  const cases: [string, string][] = [
    ['ops:hunter2@master:5050', 'xxxxxxxx@master:5050'],
    ['u:p@ss@h/mesos', 'xxxxxxxx@h/mesos'],
    ['zk://u:p@h/mesos', 'zk://xxxxxxxx@h/mesos'],
    ['master:5050', 'master:5050'],
  ];
  for (const [value, expected] of cases) t.equal(redactUrlValue(value), expected, value);
});
