import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreLock } from '../../src/runtime/store-lock';

/*
 * Host ports for the local agents of the pacers and local clusters a test process starts, apart
 * from every other test process's on this host. With one fixed range (the default, 31000 upward)
 * two test files running at once gave their tasks the same ports, and a task that binds its port
 * failed (or a probe reached the other file's task).
 *
 * Blocks of BLOCK_SIZE ports from FIRST_PORT: above Linux's default ephemeral range (32768-60999),
 * so that no outgoing connection or listen(0) takes one, and apart from the 31000 default of
 * pacers run by hand. A block is claimed with a lock file in the temporary directory naming this
 * process, taken as pacer takes its store's (src/runtime/store-lock.ts: a lock whose process is
 * gone is taken over). The block is this process's until it exits (the lock file is removed then).
 */

const FIRST_PORT = 61_000;
const BLOCK_SIZE = 100;
const BLOCKS = Math.floor((65_535 - FIRST_PORT + 1) / BLOCK_SIZE);

let claimed: readonly [number, number] | undefined;

/** This test process's block of agent ports, claimed on first use: `[begin, end]`, inclusive. */
export function testAgentPorts(): readonly [number, number] {
  if (claimed !== undefined) return claimed;
  const start = process.pid % BLOCKS;
  for (let i = 0; i < BLOCKS; i++) {
    const block = (start + i) % BLOCKS;
    const begin = FIRST_PORT + block * BLOCK_SIZE;
    const lock = StoreLock.tryAcquire(lockPath(begin));
    if (typeof lock === 'number') continue;
    process.once('exit', () => lock.release());
    claimed = [begin, begin + BLOCK_SIZE - 1];
    return claimed;
  }
  throw new Error(`no free block of ${BLOCK_SIZE} agent ports from ${FIRST_PORT}: ${BLOCKS} test processes hold them all (lock files pacer-test-agent-ports-* in ${tmpdir()})`);
}

/** `--local_agent_ports BEGIN-END` for a pacer a test spawns. */
export function agentPortsArgs(): string[] {
  const [begin, end] = testAgentPorts();
  return ['--local_agent_ports', `${begin}-${end}`];
}

function lockPath(begin: number): string {
  return join(tmpdir(), `pacer-test-agent-ports-${begin}.lock`);
}
