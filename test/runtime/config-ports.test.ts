import t from 'tap';
import { defaultConfig, parseConfig, usage } from '../../src/runtime/config';

/** `--local_port_min` / `--local_port_max` (Marathon's flags, `MarathonConf.scala`): the service port range. */

const CWD = '/work/somewhere';

t.test('the service port range: Marathon\'s defaults, flags (both spellings), environment variables, --help', async (t) => {
  t.match(defaultConfig(CWD), { localPortMin: 10_000, localPortMax: 20_000 });
  t.match(parseConfig(['--local_port_min', '12000', '--local-port-max=12010'], {}, CWD), { localPortMin: 12_000, localPortMax: 12_010 });
  t.match(parseConfig([], { PACER_LOCAL_PORT_MIN: '3000', PACER_LOCAL_PORT_MAX: '4000' }, CWD), { localPortMin: 3000, localPortMax: 4000 });
  t.match(parseConfig(['--local_port_max', '15000'], { PACER_LOCAL_PORT_MAX: '4000' }, CWD), { localPortMax: 15_000 }, 'the flag wins');
  t.match(usage(), /^ {2}--local_port_min VALUE +lowest dynamic service port of apps \(default 10000\) {2}\[PACER_LOCAL_PORT_MIN\]$/m);
  t.match(usage(), /^ {2}--local_port_max VALUE +highest dynamic service port of apps \(default 20000\) {2}\[PACER_LOCAL_PORT_MAX\]$/m);
});

t.test('--help: every flag, the longest included, stands apart from its text by two spaces or more, in one column', async (t) => {
  const lines = usage().split('\n').filter((l) => l.startsWith('  --'));
  t.ok(lines.length >= 40, `${lines.length} flags`);
  const columns = new Set<number>();
  for (const line of lines) {
    const m = /^ {2}(--[a-z_]+(?: VALUE)?)( {2,})\S/.exec(line);
    t.ok(m, `a flag, two spaces or more, its text: ${line.slice(0, 70)}`);
    if (m) columns.add(2 + m[1].length + m[2].length);
  }
  t.equal(columns.size, 1, 'every text starts in the same column');
  t.match(usage(), /^ {2}--mesos_authentication_secret_file VALUE {2}\S/m, 'the longest flag');
});

t.test('bad ranges are refused with a message naming the option', async (t) => {
  t.same(parseConfig(['--local_port_min', '0'], {}, CWD), { error: '--local_port_min 0: expected an integer from 1 to 65535' });
  t.same(parseConfig([], { PACER_LOCAL_PORT_MAX: '70000' }, CWD), { error: 'PACER_LOCAL_PORT_MAX=70000: expected an integer from 1 to 65535' });
  t.same(parseConfig(['--local_port_min', '20001'], {}, CWD), {
    error: '--local_port_min 20001 is above --local_port_max 20000: expected a range of service ports',
  });
});
