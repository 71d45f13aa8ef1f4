import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { mountVolumes } from '../../../src/cluster/local/volume-dirs';

/*
 * The local cluster links a persistent volume into a task's sandbox at its containerPath. A path
 * that is the sandbox itself (`.`, `./`, `/`) or climbs out of it is not linked: `.` made
 * mountVolumes remove the sandbox directory, which threw EISDIR inside the core's ACCEPT and
 * stopped pacer (an app stored before the API refused such paths still reaches here).
 */

const cases: readonly { containerPath: string; linked?: string }[] = [
  { containerPath: '.' },
  { containerPath: './' },
  { containerPath: '/' },
  { containerPath: '' },
  { containerPath: '..' },
  { containerPath: 'x/..' },
  { containerPath: 'a/./b' },
  { containerPath: 'data', linked: 'data' },
  { containerPath: '/data', linked: 'data' },
  { containerPath: 'a/b', linked: 'a/b' },
];

for (const c of cases) {
  t.test(`containerPath ${JSON.stringify(c.containerPath)}: ${c.linked === undefined ? 'not linked, no error' : `linked at ${c.linked}`}`, async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'pacer-mount-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    const sandbox = join(root, 'task.1');
    mountVolumes(root, 'agent-1', sandbox, [{ persistenceId: 'task#vol0', containerPath: c.containerPath, diskMilli: 1000 }]);
    t.ok(lstatSync(sandbox).isDirectory(), 'the sandbox is still a directory');
    if (c.linked === undefined) t.strictSame(readdirSync(sandbox), [], 'nothing linked into the sandbox');
    else t.ok(lstatSync(join(sandbox, c.linked)).isSymbolicLink(), 'the volume is linked');
  });
}
