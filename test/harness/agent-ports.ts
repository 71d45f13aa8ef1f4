import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Host ports for the local agents of the pacers and local clusters a test process starts, apart
 * from every other test process's on this host. With one fixed range (the default, 31000 upward)
 * two test files running at once gave their tasks the same ports, and a task that binds its port
 * failed (or a probe reached the other file's task).
 *
 * Blocks of BLOCK_SIZE ports from FIRST_PORT: above Linux's default ephemeral range (32768-60999),
 * so that no outgoing connection or listen(0) takes one, and apart from the 31000 default of
 * pacers run by hand. A block is claimed with a lock file in the temporary directory, created
 * exclusively and naming this process; a lock whose process is gone is taken over. The block is
 * this process's until it exits (the lock file is removed then).
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
    if (claim(lockPath(begin))) {
      claimed = [begin, begin + BLOCK_SIZE - 1];
      return claimed;
    }
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

/** Creates the lock naming this process, taking over one whose process is gone; false when another live process holds it. */
function claim(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.once('exit', () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (holderAlive(path)) return false;
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first; the next attempt finds out.
    }
  }
  return false;
}

function holderAlive(path: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return true; // just removed: leave it to whoever removed it
  }
  if (text === '') return true; // created, its pid not written yet
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
