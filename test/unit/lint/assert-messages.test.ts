import { ESLint } from 'eslint';
import t from 'tap';
import { repoPath } from '../../harness/repo-path';

/*
 * In the core, an assertion's message is built only when it fails (eslint.config.mjs, `coreOnly`):
 * an argument is evaluated before the call, so `assert(cond, \`… ${x}\`)` built a string at every
 * call (the offer statistics' log and the placement counters did so per placement, bench:match).
 * This proves the rule fires where it must and only there.
 */

const RULE = 'no-restricted-syntax';
const CORE = 'src/scheduler/kernel/x.ts';
const body = (statement: string): string =>
  `import { assert } from './assert';\nexport function f(n: number, id: string): void {\n  if (n < 0 || id === '') return;\n  ${statement}\n}\n`;

const cases: { name: string; file: string; code: string; rules: string[] }[] = [
  { name: 'a template with a value', file: CORE, code: body('assert(n < 64, `the log holds ${n} entries`);'), rules: [RULE] },
  { name: 'a concatenation', file: CORE, code: body("assert(n < 64, 'the log holds ' + String(n));"), rules: [RULE] },
  { name: 'a template of a failing assertion', file: CORE, code: body('if (n >= 64) assert(false, `the log holds ${n} entries`);'), rules: [] },
  { name: 'a constant message', file: CORE, code: body("assert(n < 64, 'the log is folded at 64');"), rules: [] },
  { name: 'a template without a value', file: CORE, code: body('assert(id !== \'\', `an id`);'), rules: [] },
  { name: 'outside the core', file: 'src/api/x.ts', code: body('assert(n < 64, `the log holds ${n} entries`);'), rules: [] },
];

t.test('the core builds an assertion message only when the assertion fails', async (t) => {
  const eslint = new ESLint({ cwd: repoPath('.') });
  for (const c of cases) {
    const [result] = await eslint.lintText(c.code, { filePath: repoPath(c.file) });
    t.same(result.messages.map((m) => m.ruleId), c.rules, c.name);
  }
});
