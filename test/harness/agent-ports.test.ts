import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { testAgentPorts } from './agent-ports';
import { nodeArgsFor } from './node-entry';
import { REPO_ROOT } from './repo-path';
import { waitFor, within } from './wait';

/** A child process that claims its block, answers it, and exits when told. */
function claimInChild(): { block: Promise<string>; exit: () => Promise<void> } {
  const child = spawn(process.execPath, nodeArgsFor('test/harness/fixtures/print-agent-ports.ts'), { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    block: waitFor(() => (out.endsWith('\n') ? out.trim() : undefined), 'the child\'s block of agent ports'),
    exit: async () => {
      child.stdin.end('bye\n');
      await within(exited, 'the child to exit');
    },
  };
}

t.test('each test process gets its own block of agent ports, above the ephemeral range, until it exits', async (t) => {
  const mine = testAgentPorts();
  t.same(testAgentPorts(), mine, 'the same block on every call in one process');
  t.ok(mine[0] >= 61_000 && mine[1] <= 65_535 && mine[1] - mine[0] + 1 === 100, `100 ports from 61000 (${mine.join('-')})`);
  const lock = join(tmpdir(), `pacer-test-agent-ports-${mine[0]}.lock`);
  t.ok(existsSync(lock), 'held by a lock file');
  const [a, b] = [claimInChild(), claimInChild()];
  const blocks = [`${mine[0]}-${mine[1]}`, await a.block, await b.block];
  t.equal(new Set(blocks).size, 3, `three processes, three blocks (${blocks.join(', ')})`);
  const childLock = join(tmpdir(), `pacer-test-agent-ports-${blocks[1].split('-')[0]}.lock`);
  t.ok(existsSync(childLock), 'the child holds its lock while it runs');
  await a.exit();
  await b.exit();
  t.notOk(existsSync(childLock), 'and releases it when it exits');
});
