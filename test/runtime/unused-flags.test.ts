import t from 'tap';
import { givenFlags, usage, type ClusterKind } from '../../src/runtime/config';
import { unusedFlagWarnings } from '../../src/runtime/unused-flags';

t.test('givenFlags names every option set by a flag or a variable, once, by its flag name', async (t) => {
  const cases: [string, string[], Record<string, string>, string[]][] = [
    ['nothing', [], {}, []],
    ['a flag and its value', ['--store', '/tmp/x.db'], {}, ['--store']],
    ['--flag=value and the dashed spelling', ['--max-instances-per-offer=3', '--speed=5'], {}, ['--max_instances_per_offer', '--speed']],
    ['a switch takes no value', ['--disable_http', '--port', '0'], {}, ['--disable_http', '--port']],
    ['a value that looks like a flag is a value', ['--http_realm', '--seed'], {}, ['--http_realm']],
    ['variables first, then flags, no repeats', ['--seed', '4'], { PACER_SEED: '3', PACER_STORE: '/tmp/y.db' }, ['--store', '--seed']],
  ];
  for (const [name, argv, env, want] of cases) t.same(givenFlags(argv, env), want, name);
});

t.test('unusedFlagWarnings names what the chosen cluster does not use, in one line', async (t) => {
  const cases: [ClusterKind, string[], RegExp | undefined][] = [
    ['local', ['--store', '--sandbox', '--max_instances_per_offer', '--port'], undefined],
    ['local', ['--master', '--workload'], /^--cluster local does not use --master, --workload: ignored$/],
    ['mesos', ['--master', '--store', '--framework_name', '--record'], undefined],
    ['mesos', ['--local_agents', '--sandbox', '--seed'], /^--cluster mesos does not use --local_agents, --sandbox, --seed: ignored$/],
    ['mesos', ['--disable_maintenance_mode', '--maintenance_mode', '--draining_seconds'], undefined],
    ['local', ['--disable_maintenance_mode', '--draining_seconds'], /^--cluster local does not use --disable_maintenance_mode, --draining_seconds: ignored$/],
    ['sim', ['--maintenance_mode'], /^--cluster sim does not use --maintenance_mode: ignored/],
    ['sim', ['--workload', '--speed', '--seed', '--port', '--http_credentials', '--http_max_body', '--default_network_name'], undefined],
    ['sim', ['--max_instances_per_offer', '--store', '--mesos_role'], /^--cluster sim does not use --max_instances_per_offer, --store, --mesos_role: ignored \(the workload's options/],
  ];
  for (const [cluster, given, want] of cases) {
    const lines = unusedFlagWarnings(cluster, given);
    if (want === undefined) t.same(lines, [], `${cluster} ${given.join(' ')}: no warning`);
    else t.match(lines, [want], `${cluster} ${given.join(' ')}`);
  }
});

t.test('the ZooKeeper timeouts without --zk are named in a warning of their own', async (t) => {
  const cases: [ClusterKind, string[], boolean, RegExp[]][] = [
    ['local', ['--zk_timeout', '--zk_session_timeout', '--port'], false, [/^--zk_timeout, --zk_session_timeout: ignored without --zk/]],
    ['local', ['--zk', '--zk_timeout', '--zk_session_timeout'], true, []],
    ['mesos', ['--master', '--zk_session_timeout'], true, []],
    ['mesos', ['--local_agents', '--zk_timeout'], false, [/^--cluster mesos does not use --local_agents: ignored$/, /^--zk_timeout: ignored without --zk/]],
  ];
  for (const [cluster, given, zk, want] of cases) t.match(unusedFlagWarnings(cluster, given, zk), want, `${cluster} ${given.join(' ')}${zk ? ' (with --zk)' : ''}`);
  t.same(unusedFlagWarnings('local', ['--zk', '--zk_timeout'], true), [], 'with --zk: nothing');
});

t.test('every flag the warnings name is a flag pacer has, and every flag is used by some cluster', async (t) => {
  const known = new Set([...usage().matchAll(/^ {2}(--[a-z_]+)/gm)].map((m) => m[1]));
  t.ok(known.size > 40, 'the usage lists the flags');
  const clusters: ClusterKind[] = ['local', 'mesos', 'sim'];
  for (const flag of known) {
    // With --zk given, so that its timeouts count as used (their own warning is tested above).
    const unusedBy = clusters.filter((c) => unusedFlagWarnings(c, [flag], true).length > 0);
    t.ok(unusedBy.length < clusters.length, `${flag} is used by at least one cluster`);
  }
  const named = clusters.flatMap((c) => unusedFlagWarnings(c, [...known]).flatMap((line) => [...line.matchAll(/--[a-z_]+/g)].map((m) => m[0])));
  for (const flag of named.filter((f) => f !== '--cluster')) t.ok(known.has(flag), `${flag} exists`);
});
