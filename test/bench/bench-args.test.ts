import t from 'tap';
import { type BenchUsage, HelpRequested, UsageError, readBenchArgs, usageText } from '../../bench/lib/bench-args';

const USAGE: BenchUsage = {
  name: 'bench:test',
  summary: 'A benchmark for this test.',
  options: {
    sizes: { kind: 'ints', help: 'instances per run', default: [10, 100], min: 1 },
    repeat: { kind: 'int', help: 'runs per size', default: 3, min: 1, max: 100 },
    speed: { kind: 'number', help: 'virtual speed', default: 1, min: 0.1 },
    cap: { kind: 'int', help: 'a cap, none by default', min: 1 },
    store: { kind: 'choice', help: 'the store', default: 'none', choices: ['none', 'memory'] },
    pacer: { kind: 'string', help: 'more flags for pacer' },
    'no-warmup': { kind: 'flag', help: 'no warm-up run' },
  },
};

t.test('values of every kind, and defaults', async (t) => {
  const args = readBenchArgs(USAGE, ['--sizes', '5,6', '--repeat', '2', '--speed', '0.5', '--store', 'memory', '--pacer', '--x 1', '--no-warmup']);
  t.same(args.ints('sizes'), [5, 6]);
  t.equal(args.int('repeat'), 2);
  t.equal(args.number('speed'), 0.5);
  t.equal(args.text('store'), 'memory');
  t.equal(args.text('pacer'), '--x 1');
  t.equal(args.flag('no-warmup'), true);
  t.ok(args.given('sizes'));
  const defaults = readBenchArgs(USAGE, []);
  t.same(defaults.ints('sizes'), [10, 100]);
  t.equal(defaults.int('repeat'), 3);
  t.equal(defaults.text('store'), 'none');
  t.equal(defaults.text('pacer'), undefined);
  t.equal(defaults.flag('no-warmup'), false);
  t.equal(defaults.maybeNumber('cap'), undefined, 'no default: undefined');
  t.equal(readBenchArgs(USAGE, ['--cap', '7']).maybeNumber('cap'), 7);
  t.throws(() => defaults.int('cap'), /maybeNumber/, 'int() of an option without a default is a programming error');
  t.notOk(defaults.given('sizes'));
  t.equal(readBenchArgs(USAGE, ['--repeat=4']).int('repeat'), 4, '--name=value');
});

t.test('a command line that cannot run is one usage error naming the option', async (t) => {
  const cases: readonly [string[], RegExp][] = [
    [['--sizes', '0'], /--sizes must be at least 1 \(got 0\)/],
    [['--sizes', '-5'], /--sizes must be at least 1/],
    [['--sizes', 'abc'], /--sizes must be a whole number \(got 'abc'\)/],
    [['--sizes', '10,,20'], /--sizes must be a whole number \(got ''\)/],
    [['--sizes', '1.5'], /--sizes must be a whole number/],
    [['--repeat', '0'], /--repeat must be from 1 to 100 \(got 0\)/],
    [['--repeat', '101'], /--repeat must be from 1 to 100/],
    [['--speed', 'Infinity'], /--speed must be a number/],
    [['--store', 'sql'], /--store must be one of none, memory \(got 'sql'\)/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--repeat'], /--repeat/],
    [['extra'], /extra/],
    [['--repeat', '2', '--repeat', '3'], /--repeat is given more than once/],
    [['--no-warmup=yes'], /no-warmup/],
  ];
  for (const [argv, message] of cases) {
    t.throws(() => readBenchArgs(USAGE, argv), message, argv.join(' '));
    let caught: unknown;
    try {
      readBenchArgs(USAGE, argv);
    } catch (err) {
      caught = err;
    }
    t.ok(caught instanceof UsageError, `${argv.join(' ')}: a UsageError`);
  }
});

t.test('--help gives the usage: every option, its range and its default', async (t) => {
  let caught: unknown;
  try {
    readBenchArgs(USAGE, ['--help']);
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof HelpRequested && caught.message === usageText(USAGE), 'HelpRequested with the usage text');
  const text = usageText(USAGE);
  t.match(text, /^usage: npm run bench:test -- \[options\]/);
  for (const line of ['--sizes N,N,…', '(≥ 1; default 10,100)', 'a cap, none by default (≥ 1)\n', '--repeat N', '(1–100; default 3)', '--store none|memory', '(default none)', '--no-warmup', '--help']) {
    t.ok(text.includes(line), line);
  }
  const column = text.split('\n').filter((l) => l.startsWith('  --')).map((l) => l.search(/\S/u) + l.trimStart().search(/\s{2}\S/u));
  t.equal(new Set(column).size, 1, 'the help texts start in one column');
});
