import t from 'tap';
import type { Decision } from '../../../src/runtime/decision-reader';
import { formatDecisions, formatUnplaced, groupDecisions, SUMMARY_DECISION_LINES_MAX } from '../../../sim/runner/format-decisions';
import type { TimedDecision } from '../../../sim/runner/run-result';

function at(atMs: number, decision: Partial<Decision> & Pick<Decision, 'kind'>): TimedDecision {
  return { atMs, decision: { text: `${decision.kind} ${decision.instanceId ?? ''}`, ...decision } };
}

const inst = (n: number) => `web.instance-0000000${n}-aaaa-bbbb-cccc-dddddddddddd`;

t.test('launches and kills of one run spec at one instant for one reason share a line; the rest stay single', async (t) => {
  const lines = formatDecisions([
    at(0, { kind: 'launch', runSpecId: '/web', instanceId: inst(1), agentId: 'agent-1' }),
    at(0, { kind: 'launch', runSpecId: '/web', instanceId: inst(2), agentId: 'agent-2' }),
    at(0, { kind: 'launch', runSpecId: '/db', instanceId: inst(3), agentId: 'agent-2', text: 'launch db' }),
    at(0, { kind: 'running', runSpecId: '/web', instanceId: inst(1), text: 'running' }),
    at(5000, { kind: 'kill', runSpecId: '/web', instanceId: inst(1), agentId: 'agent-1', reason: 'scale-down' }),
    at(5000, { kind: 'kill', runSpecId: '/web', instanceId: inst(2), agentId: 'agent-2', reason: 'scale-down' }),
    at(5000, { kind: 'kill', runSpecId: '/web', instanceId: inst(4), reason: 'user', text: 'kill by user' }),
    at(6000, { kind: 'ended', runSpecId: '/web', instanceId: inst(1), condition: 'Killed', text: 'ended after an announced kill' }),
    at(6000, { kind: 'ended', runSpecId: '/web', instanceId: inst(4), condition: 'Failed', text: 'web.instance-00000004 of /web Failed' }),
  ]);
  t.strictSame(lines, [
    '        0.000s  launch /web ×2: web.instance-00000001 on agent-1, web.instance-00000002 on agent-2',
    '        0.000s  launch db',
    '        5.000s  kill /web ×2: web.instance-00000001 on agent-1, web.instance-00000002 on agent-2; scale-down (more instances than the target)',
    '        5.000s  kill by user',
    '        6.000s  web.instance-00000004 of /web Failed',
  ]);
});

t.test('unplaced instances dropped together read as a drop, with the kind, one line for the report\'s table too', async (t) => {
  const drops = [1, 2, 3].map((n) => at(30_000, { kind: 'kill', runSpecId: '/web', instanceId: inst(n), condition: 'Scheduled', reason: 'scale-down' }));
  const placed = at(30_000, { kind: 'kill', runSpecId: '/web', instanceId: inst(4), agentId: 'agent-1', condition: 'Running', reason: 'scale-down', text: 'kill web.instance-00000004 of /web on agent-1' });
  const text = 'drop unplaced /web ×3: web.instance-00000001, web.instance-00000002, web.instance-00000003; scale-down (more instances than the target)';
  t.strictSame(formatDecisions([...drops, placed]), [`       30.000s  ${text}`, '       30.000s  kill web.instance-00000004 of /web on agent-1']);
  t.strictSame(groupDecisions([...drops, placed]), [{ atMs: 30_000, kind: 'kill', text }, { atMs: 30_000, kind: 'kill', text: placed.decision.text }]);
});

t.test('a long run is cut at the limit with a pointer to the report', async (t) => {
  const many = Array.from({ length: SUMMARY_DECISION_LINES_MAX + 5 }, (_, i) => at(i * 1000, { kind: 'unreachable', instanceId: inst(i % 10) }));
  const lines = formatDecisions(many);
  t.equal(lines.length, SUMMARY_DECISION_LINES_MAX + 1);
  t.equal(lines.at(-1), '  … 5 more lines (all of them: --report FILE)');
});

t.test('unplaced run specs: the rejection counts and last offers, or that none was rejected, and the backoff', async (t) => {
  t.strictSame(formatUnplaced([
    { runSpecId: '/big', count: 2, rejections: { InsufficientCpus: 4, InsufficientMemory: 1 }, lastUnused: [{ agentId: 'agent-1', reason: 'InsufficientCpus' }] },
    { runSpecId: '/crash', count: 1, rejections: {}, lastUnused: [], backoffUntilMs: 65_000 },
  ]), [
    '  /big                        2 unplaced; offers rejected: InsufficientCpus 4, InsufficientMemory 1 (last: agent-1 InsufficientCpus)',
    '  /crash                      1 unplaced; no offer was rejected for it; launches delayed until 1m5.000s (backoff)',
  ]);
});
