import { JuteWriter } from '../../../../src/cluster/mesos/zk/jute-writer';
import type { ZkClient } from '../../../../src/cluster/mesos/zk/zk-client';
import { ZkError } from '../../../../src/cluster/mesos/zk/zk-error';
import { ErrorCode, OpCode } from '../../../../src/cluster/mesos/zk/zk-protocol';

/** CreateMode flags of a CreateRequest. */
export const CreateMode = { persistent: 0, ephemeral: 1, ephemeralSequential: 3 } as const;

/** ZooDefs.Perms.ALL for the `world:anyone` scheme (OPEN_ACL_UNSAFE). */
const PERMS_ALL = 31;

/**
 * Test-only: creates a znode (CreateRequest `{path, data, acl, flags}` with OPEN_ACL_UNSAFE) and
 * returns the created path (with the sequence suffix for sequential modes). Tolerates NODEEXISTS
 * for persistent nodes so that a parent can be ensured.
 */
export async function createZnode(client: ZkClient, path: string, data: string, flags: number): Promise<string> {
  const body = new JuteWriter().ustring(path).buffer(Buffer.from(data)).int(1).int(PERMS_ALL).ustring('world').ustring('anyone').int(flags).bytes();
  try {
    return (await client.request(OpCode.create, body)).ustring() ?? path;
  } catch (error) {
    if (flags === CreateMode.persistent && error instanceof ZkError && error.serverCode === ErrorCode.NODEEXISTS) return path;
    throw error;
  }
}

/** Test-only: deletes a znode at any version; an absent node is fine. */
export async function deleteZnode(client: ZkClient, path: string): Promise<void> {
  try {
    await client.request(OpCode.delete, new JuteWriter().ustring(path).int(-1).bytes());
  } catch (error) {
    if (!(error instanceof ZkError && error.serverCode === ErrorCode.NONODE)) throw error;
  }
}
