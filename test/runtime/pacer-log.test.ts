import t from 'tap';
import { defaultConfig, parseConfig, type PacerConfig } from '../../src/runtime/config';
import { DecisionLog } from '../../src/runtime/decision-log';
import { LOGGING_LEVELS, type LoggingLevel } from '../../src/runtime/pacer-log';
import { localClusterOptions } from '../../src/runtime/start-local';
import { mesosLogger } from '../../src/runtime/start-mesos';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import { captureLog } from '../harness/log-capture';

/** pacer's log (src/runtime/pacer-log.ts and what writes into it): levels, the two forms, components. */

const TS = '2026-01-01T00:00:00.000Z';
const ID = 'web.instance-705d41b3-b83a-11ee-9a3e-0242ac130003';

/** One record at every level pino has, by a child of component `test`. */
function logEveryLevel(level: LoggingLevel): string[] {
  const { log, records } = captureLog('json', level);
  const child = log.child({ component: 'test' });
  child.trace('t');
  child.debug('d');
  child.info('i');
  child.warn('w');
  child.error('e');
  child.fatal('f');
  return records().map((r) => String(r.msg));
}

t.test('--log_level: Marathon\'s levels; a level lets through itself and what is more severe', async (t) => {
  t.same(LOGGING_LEVELS, ['off', 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'all']);
  t.same(logEveryLevel('off'), []);
  t.same(logEveryLevel('fatal'), ['f']);
  t.same(logEveryLevel('warn'), ['w', 'e', 'f']);
  t.same(logEveryLevel('info'), ['i', 'w', 'e', 'f']);
  t.same(logEveryLevel('debug'), ['d', 'i', 'w', 'e', 'f']);
  t.same(logEveryLevel('all'), ['t', 'd', 'i', 'w', 'e', 'f'], 'all: everything (pino\'s trace)');
});

t.test('the flags: --log_level or Marathon\'s --logging_level (any case), and --log_format for every cluster; the format defaults to the terminal', async (t) => {
  const parse = (...argv: string[]): PacerConfig | 'help' | { error: string } => parseConfig(argv, {}, '/tmp');
  t.match(parse('--log_level', 'DEBUG'), { loggingLevel: 'debug' });
  t.match(parse('--log-level=warn'), { loggingLevel: 'warn' });
  t.match(parse('--logging_level', 'error'), { loggingLevel: 'error' }, 'Marathon\'s name of the flag');
  t.match(parseConfig(['--log_level', 'trace'], { PACER_LOG_LEVEL: 'warn' }, '/tmp'), { loggingLevel: 'trace' }, 'the flag wins over the variable');
  t.match(parse('--log_level', 'verbose'), { error: '--log_level verbose: expected one of off, fatal, error, warn, info, debug, trace, all' });
  t.match(parse(), { loggingLevel: 'info', logFormat: undefined });
  t.match(parse('--cluster', 'local', '--log_format', 'json'), { cluster: 'local', logFormat: 'json' });
  t.match(parseConfig([], { PACER_LOGGING_LEVEL: 'warn', PACER_LOG_FORMAT: 'text' }, '/tmp'), { loggingLevel: 'warn', logFormat: 'text' });
  t.match(parse('--logging_level', 'verbose'), { error: '--logging_level verbose: expected one of off, fatal, error, warn, info, debug, trace, all' });
  t.match(parse('--log_format', 'xml'), { error: '--log_format xml: expected one of text, json' });
});

t.test('json: one object per line with level, time, component and msg; text: one readable line per record', async (t) => {
  for (const format of ['json', 'text'] as const) {
    const { log, lines } = captureLog(format);
    log.child({ component: 'api' }).info({ method: 'GET', path: '/ping', status: 200 }, 'GET /ping 200 0.4 ms 127.0.0.1');
    log.child({ component: 'scheduler' }).warn({ decision: 'unreachable', at: '2m15.000s' }, 'web.instance-1 of /web unreachable');
    const out = lines();
    t.equal(out.length, 2, `${format}: one line per record`);
    if (format === 'json') {
      t.match(JSON.parse(out[0]), { level: 30, time: Number, component: 'api', method: 'GET', path: '/ping', status: 200, msg: 'GET /ping 200 0.4 ms 127.0.0.1' });
      t.match(JSON.parse(out[1]), { level: 40, component: 'scheduler', decision: 'unreachable', at: '2m15.000s' });
    } else {
      t.match(out[0], /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: api: GET \/ping 200 0\.4 ms 127\.0\.0\.1$/);
      t.match(out[1], /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: scheduler: 2m15\.000s {2}web\.instance-1 of \/web unreachable$/, 'the virtual time of a sim decision first');
    }
  }
});

t.test('the decision log: one record per decision the core\'s events and sweeps show, with the reader\'s fields', async (t) => {
  const { log, records } = captureLog('json');
  const listeners: ((event: MarathonEvent) => void)[] = [];
  let nowMs = 1000;
  const source = {
    subscribe: (l: (event: MarathonEvent) => void) => { listeners.push(l); return () => undefined; },
    instance: () => ({ goal: 'Running' as const }),
    backoffUntilMs: () => 4000,
  };
  const decisions = new DecisionLog(source, { nowMs: () => nowMs }, log);
  const emit = (event: MarathonEvent): void => { for (const l of listeners) l(event); };
  const changed = (condition: 'Provisioned' | 'Running' | 'Unreachable' | 'Failed'): MarathonEvent => ({
    eventType: 'instance_changed_event', timestamp: TS, instanceId: ID, condition, runSpecId: '/web', agentId: 'agent-1', host: 'agent-1', runSpecVersion: TS,
  });
  emit(changed('Provisioned'));
  emit({ eventType: 'status_update_event', timestamp: TS } as unknown as MarathonEvent);
  emit(changed('Unreachable'));
  emit(changed('Failed'));
  decisions.afterInput();
  t.match(records(), [
    { level: 30, component: 'scheduler', decision: 'launch', runSpecId: '/web', instanceId: ID, agentId: 'agent-1', msg: 'launch web.instance-705d41b3 of /web on agent-1' },
    { level: 40, decision: 'unreachable', msg: 'web.instance-705d41b3 of /web on agent-1 unreachable' },
    { level: 30, decision: 'ended', condition: 'Failed' },
    { level: 40, decision: 'backoff', runSpecId: '/web', delayMs: 3000, msg: 'launches of /web delayed 3s (backoff after a failure)' },
  ]);
  t.equal(records().length, 4, 'a status update decides nothing');
  nowMs = 2000;
  decisions.afterInput();
  t.equal(records().length, 4, 'a backoff is said once');
});

t.test('the decision log: the drops of unplaced instances of one input are one record per run spec (a scale-down from 100,000 made a line each)', async (t) => {
  const { log, records } = captureLog('json');
  const listeners: ((event: MarathonEvent) => void)[] = [];
  const source = {
    subscribe: (l: (event: MarathonEvent) => void) => { listeners.push(l); return () => undefined; },
    instance: () => ({ goal: 'Decommissioned' as const, killReason: 'scale-down' as const }),
  };
  const decisions = new DecisionLog(source, { nowMs: () => 1000 }, log);
  const dropped = (runSpecId: string, n: number): MarathonEvent => ({
    eventType: 'instance_changed_event', timestamp: TS, instanceId: `${runSpecId.slice(1)}.instance-${String(n).padStart(8, '0')}-0000-0000-0000-000000000000`,
    condition: 'Scheduled', runSpecId, agentId: null, host: null, runSpecVersion: TS,
  } as unknown as MarathonEvent);
  // Each instance's Scheduled event when it was made, then the same condition again when it is dropped.
  const twice = (event: MarathonEvent): void => { for (let i = 0; i < 2; i++) for (const l of listeners) l(event); };
  for (let n = 0; n < 5; n++) twice(dropped('/web', n));
  twice(dropped('/api', 9));
  t.same(records(), [], 'nothing before the input ends');
  decisions.afterInput();
  t.match(records(), [
    { level: 30, component: 'scheduler', decision: 'kill', runSpecId: '/web', reason: 'scale-down', count: 5, msg: 'drop 5 unplaced instances of /web: scale-down (more instances than the target)' },
    { level: 30, decision: 'kill', runSpecId: '/api', instanceId: /^api\.instance-/, msg: /^drop unplaced api\.instance-00000009 of \/api: scale-down/ },
  ]);
  t.equal(records().length, 2);
  t.notOk('instanceId' in records()[0], 'the summary names no one instance');
  decisions.afterInput();
  t.equal(records().length, 2, 'said once');
});

t.test('the clusters\' own lines: component local and mesos; credentials in a URL never reach the log', async (t) => {
  const { log, records, lines } = captureLog('json');
  localClusterOptions(defaultConfig('/tmp'), log).log?.('killed 1 process(es) of /tmp/sandboxes that no task accounts for');
  const mesos = mesosLogger(log);
  mesos.info('subscribed to http://ops:hunter2@master:5050 as framework f-1', { subscription: 'subscribed', frameworkId: 'f-1' });
  mesos.warn('zk://zkuser:zkpass@zk1:2181/mesos is gone; resubscribing in 100 ms', { subscription: 'resubscribing', retryInMs: 100 });
  t.match(records(), [
    { level: 40, component: 'local', msg: /^killed 1 process/ },
    { level: 30, component: 'mesos', subscription: 'subscribed', frameworkId: 'f-1', msg: 'subscribed to http://xxxxxxxx@master:5050 as framework f-1' },
    { level: 40, component: 'mesos', subscription: 'resubscribing', retryInMs: 100, msg: 'zk://xxxxxxxx@zk1:2181/mesos is gone; resubscribing in 100 ms' },
  ]);
  t.notMatch(lines().join('\n'), /hunter2|zkpass/);
});
