import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runScenario } from '../../sim/runner/run-scenario';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * The whole scenario files docs/scenario-format.md shows (its `yaml` blocks with a top-level
 * `name:`, "A complete example" and "A second example") load, convert and pass as written, with
 * no invariant violated: a reader who copies one gets a passing run, as the page says. (The
 * shorter `yaml` blocks there are fragments of a timeline, not files.)
 */

const DOC = 'docs/scenario-format.md';

interface Example {
  readonly line: number;
  readonly text: string;
}

function wholeFileExamples(): Example[] {
  const lines = readFileSync(join(REPO_ROOT, DOC), 'utf8').split('\n');
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```yaml') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    const body = lines.slice(i + 1, end);
    if (body.some((l) => l.startsWith('name:'))) out.push({ line: i + 2, text: body.join('\n') });
    i = end;
  }
  return out;
}

const examples = wholeFileExamples();

t.test(`${DOC} shows whole scenario files`, async (t) => {
  t.ok(examples.length >= 2, `found ${examples.length} (the complete example and the second example)`);
});

for (const example of examples) {
  t.test(`the example at ${DOC}:${example.line} passes as written`, async (t) => {
    const file = `${DOC}:${example.line}`;
    const loaded = loadScenario(file, example.text);
    if (!loaded.ok) {
      t.fail('the example loads (every app and pod definition converts)', { errors: loaded.errors });
      return;
    }
    const result = runScenario(loaded.scenario);
    t.strictSame(result.violations, [], 'no invariant violated');
    t.strictSame(result.expectations.filter((e) => !e.passed).map((e) => e.atMs), [], 'every expectation holds');
    t.ok(result.expectations.length > 0, 'the example checks something');
    t.ok(result.passed, 'the run passes');
  });
}
