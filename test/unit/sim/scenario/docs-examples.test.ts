import { readFileSync } from 'node:fs';
import t from 'tap';
import { loadScenario } from '../../../../sim/scenario/load-scenario';
import { repoPath } from '../../../harness/repo-path';

const DOC = 'docs/scenario-format.md';
const text = readFileSync(repoPath(DOC), 'utf8');
const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]);
const whole = blocks.filter((block) => block.startsWith('name:'));

t.test('the reference documents whole scenarios', async (t) => {
  t.ok(whole.length >= 2, `${whole.length} complete examples`);
});

for (const [index, block] of whole.entries()) {
  t.test(`complete example ${index + 1} in ${DOC} loads`, async (t) => {
    const result = loadScenario(DOC, block);
    t.strictSame(result.ok ? [] : result.errors, []);
  });
}
