import { readFileSync } from 'node:fs';
import t from 'tap';
import { usage } from '../../src/runtime/config';
import { unusedFlagWarnings } from '../../src/runtime/unused-flags';
import { repoPath } from '../harness/repo-path';

/**
 * The README says docs/mesos.md has every Mesos flag: each flag that only the Mesos cluster reads
 * (the local cluster ignores it, the Mesos cluster does not: src/runtime/unused-flags.ts) has a
 * row in docs/mesos.md's `## Flags` table, and every flag of that table is a flag of the parser.
 */

function mesosDocFlags(): string[] {
  const lines = readFileSync(repoPath('docs', 'mesos.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Flags');
  const flags: string[] = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (!lines[i].startsWith('| `--')) continue;
    const firstCell = lines[i].split(' | ')[0];
    for (const m of firstCell.matchAll(/`(--[a-z_]+)/g)) flags.push(m[1]);
  }
  return flags;
}

const parserFlags = [...usage().matchAll(/^ {2}(--[a-z_]+)/gm)].map((m) => m[1]).filter((f) => f !== '--help');

t.test('docs/mesos.md lists every flag only the Mesos cluster reads, and only flags of the parser', async (t) => {
  const documented = mesosDocFlags();
  t.ok(documented.length >= 10, `the table was found (${documented.length} flags)`);
  const mesosOnly = parserFlags.filter((f) => unusedFlagWarnings('local', [f]).length > 0 && unusedFlagWarnings('mesos', [f]).length === 0);
  t.ok(mesosOnly.includes('--master') && mesosOnly.length >= 5, `the Mesos-only flags were found (${mesosOnly.join(', ')})`);
  for (const flag of mesosOnly) t.ok(documented.includes(flag), `${flag} (read only by --cluster mesos) is in docs/mesos.md "Flags"`);
  for (const flag of documented) t.ok(parserFlags.includes(flag), `${flag} (docs/mesos.md "Flags") is a flag of src/runtime/config.ts`);
});
