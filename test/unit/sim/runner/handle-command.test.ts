import t from 'tap';
import { BackoffOracle } from '../../../../sim/invariants/backoff-oracle';
import { handleCommand, type CommandDeps } from '../../../../sim/runner/perform-step';
import type { Command } from '../../../../src/scheduler/model/inputs';

/** A core with two instances of /web, one launched and one waiting for an offer; the backoff oracle a spy. */
function deps(): { deps: CommandDeps; marked: string[] } {
  const marked: string[] = [];
  const backoff = new BackoffOracle();
  backoff.markUserKilled = (ids) => void marked.push(...ids);
  const conditions: Record<string, string> = { running: 'Running', waiting: 'Scheduled' };
  const scheduler = {
    instance: (id: string) => (conditions[id] === undefined ? undefined : { instanceId: id, condition: conditions[id] }),
    handle: () => ({ ok: true }),
  };
  const trace = { append: () => undefined };
  return { deps: { scheduler, trace, checker: { backoff }, nowMs: 0 } as unknown as CommandDeps, marked };
}

t.test('a plain kill marks for the backoff oracle only the instances it kills: launched ones (swarm seed 30157)', async (t) => {
  const rows: { name: string; scale: boolean; wipe: boolean; marked: string[] }[] = [
    { name: 'plain: the launched one is relaunched without backoff; the waiting one is left as it was', scale: false, wipe: false, marked: ['running'] },
    { name: 'with scale: none relaunches', scale: true, wipe: false, marked: [] },
    { name: 'with wipe: none relaunches as itself', scale: false, wipe: true, marked: [] },
  ];
  for (const row of rows) {
    const { deps: d, marked } = deps();
    const cmd: Command = { type: 'killInstances', runSpecId: '/web', instanceIds: ['running', 'waiting'], scale: row.scale, wipe: row.wipe };
    handleCommand(d, cmd);
    t.same(marked, row.marked, row.name);
  }
});
