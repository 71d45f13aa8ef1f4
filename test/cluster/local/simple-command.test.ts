import t from 'tap';
import { simpleCommand } from '../../../src/cluster/local/simple-command';

const cases: readonly { readonly shell: string; readonly want: readonly string[] | undefined; readonly why: string }[] = [
  { shell: 'sleep 3600', want: ['sleep', '3600'], why: 'a program and its argument' },
  { shell: '  sleep\t3600  ', want: ['sleep', '3600'], why: 'blanks around and between words' },
  { shell: './server --port=8080 -v', want: ['./server', '--port=8080', '-v'], why: 'a path, = in an argument' },
  { shell: '/usr/bin/python3 -m http.server 8000', want: ['/usr/bin/python3', '-m', 'http.server', '8000'], why: 'an absolute path' },
  { shell: 'a_b-c.d a,b:c+d%e@f', want: ['a_b-c.d', 'a,b:c+d%e@f'], why: 'every plain character' },
  { shell: 'python3 -m http.server $PORT0', want: undefined, why: 'a parameter expansion' },
  { shell: 'sleep 1; sleep 2', want: undefined, why: 'a list' },
  { shell: 'sleep 1 && true', want: undefined, why: 'an and-list' },
  { shell: 'yes | head', want: undefined, why: 'a pipe' },
  { shell: 'sleep 1 &', want: undefined, why: 'a background job' },
  { shell: 'echo hi > out', want: undefined, why: 'a redirection' },
  { shell: "echo 'a b'", want: undefined, why: 'quotes' },
  { shell: 'ls *.txt', want: undefined, why: 'a glob' },
  { shell: 'ls ~', want: undefined, why: 'a tilde' },
  { shell: 'sleep 1 # why', want: undefined, why: 'a comment' },
  { shell: 'sleep 1\nsleep 2', want: undefined, why: 'two lines' },
  { shell: 'a\\b', want: undefined, why: 'a backslash' },
  { shell: 'FOO=1 env', want: undefined, why: 'an assignment first' },
  { shell: 'exit 3', want: undefined, why: 'a builtin' },
  { shell: 'echo hi', want: undefined, why: 'dash\'s echo is a builtin' },
  { shell: 'kill -9 1', want: undefined, why: 'dash\'s kill is a builtin' },
  { shell: 'true', want: undefined, why: 'a builtin without arguments' },
  { shell: 'exec sleep 1', want: undefined, why: 'exec is a builtin' },
  { shell: 'while', want: undefined, why: 'a reserved word' },
  { shell: '   ', want: undefined, why: 'no word' },
  { shell: `sleep ${'1'.repeat(5000)}`, want: undefined, why: 'longer than 4,096 characters' },
];

t.test('simpleCommand: the words sh would exec unchanged, or undefined when the shell would do more', async (t) => {
  for (const c of cases) t.strictSame(simpleCommand(c.shell), c.want, `${JSON.stringify(c.shell.slice(0, 40))}: ${c.why}`);
});
