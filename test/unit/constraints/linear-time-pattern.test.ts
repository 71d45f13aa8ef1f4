import { setFlagsFromString } from 'node:v8';
import t from 'tap';
import { linearTimeProblem } from '../../../src/scheduler/constraints/linear-time-pattern';
import { fullMatchRegex } from '../../../src/scheduler/constraints/full-match-regex';
import { limitRegexpBacktracking } from '../../../src/runtime/regexp-backtracking';

// V8's own verdict: a pattern its linear-time engine can run compiles with the `l` flag (a flag
// this test process turns on; pacer itself only turns on the fallback to that engine).
setFlagsFromString('--enable-experimental-regexp-engine');

function linearInV8(pattern: string): boolean {
  try {
    new RegExp(`^(?:${pattern})$`, 'l');
    return true;
  } catch {
    return false;
  }
}

const CASES: [string, ReturnType<typeof linearTimeProblem>][] = [
  ['rack-[0-9]+', undefined],
  ['(.*.*.*.*)*z', undefined],
  ['5\\..*', undefined],
  ['\\{hdd.*', undefined],
  ['a|b|(c(d)e)*', undefined],
  ['(?:ab)+', undefined],
  ['(?<name>ab)+', undefined],
  ['\\\\1', undefined],
  ['[\\1]', undefined],
  ['[(?=]x', undefined],
  ['\\(?=a', undefined],
  ['\\0', undefined],
  ['(a)\\1', 'a backreference'],
  ['((a)\\2*)*z', 'a backreference'],
  ['(?<n>a)\\k<n>', 'a backreference'],
  ['x(a)[b]\\1', 'a backreference'],
  ['a(?=b)', 'a lookaround'],
  ['a(?!b)', 'a lookaround'],
  ['(?<=a)b', 'a lookaround'],
  ['(?<!a)b', 'a lookaround'],
  ['[]](?=x)', 'a lookaround'],
];

t.test('a backreference or a lookaround is found exactly where V8\'s linear-time engine refuses the pattern', async (t) => {
  for (const [pattern, problem] of CASES) {
    t.ok(fullMatchRegex(pattern) !== undefined, `${pattern} compiles`);
    t.equal(linearTimeProblem(pattern), problem, `${pattern}: ${problem ?? 'none'}`);
    t.equal(linearInV8(pattern), problem === undefined, `${pattern}: V8 agrees`);
  }
});

t.test('with the fallback on, a pattern that backtracks exponentially finishes, with the same answer', async (t) => {
  limitRegexpBacktracking();
  // Without the fallback: minutes for the first value, far longer for the second.
  const re = fullMatchRegex('(.*.*.*.*.*.*.*.*.*.*)*z');
  t.equal(re?.test('agent-1.eu-west.example.org'), false, 'no z at the end');
  t.equal(re?.test('agent-1.eu-west.example.org.z'), true, 'a z at the end');
});
