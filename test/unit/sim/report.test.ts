import { readFileSync } from 'node:fs';
import t from 'tap';
import { runScenario } from '../../../sim/runner/run-scenario';
import { loadScenario } from '../../../sim/scenario/load-scenario';
import type { Scenario } from '../../../sim/scenario/scenario';
import { assignLanes } from '../../../sim/report/assign-lanes';
import { reportData } from '../../../sim/report/report-data';
import { renderReport } from '../../../sim/report/render-report';

function load(file: string, text = readFileSync(file, 'utf8')): Scenario {
  const loaded = loadScenario(file, text);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.scenario;
}

t.test('the report data of partition.yaml: the partition on agent-1, the instance there unreachable, the replacement on agent-4', async (t) => {
  const scenario = load('scenarios/partition.yaml');
  const result = runScenario(scenario, { keepTrace: true });
  const data = reportData(scenario, result);
  t.strictSame(data.faults.map((f) => [f.kind, f.agentId, f.fromMs, f.toMs, f.row]), [['partition', 'agent-1', 60_000, 360_000, 'agent-1#0']]);
  t.strictSame(data.rows.map((r) => r.key), ['agent-1#0', 'agent-2#0', 'agent-3#0', 'agent-4#0'], 'one lane per agent, nothing left unplaced');
  const onAgent1 = data.segments.filter((s) => s.agentId === 'agent-1').map((s) => [s.condition, s.fromMs, s.toMs]);
  t.match(onAgent1, [['Provisioned'], ['Staging'], ['Starting'], ['Running'], ['Unreachable', 135_000, 255_000], ['UnreachableInactive', 255_000, 360_000], ['Running', 360_000, 900_000]]);
  const replacement = data.segments.filter((s) => s.agentId === 'agent-4');
  t.match(replacement.map((s) => [s.condition, s.fromMs]), [['Provisioned', 255_000], ['Staging'], ['Starting'], ['Running'], ['Killing', 360_000]]);
  t.match(data.marks.filter((m) => m.kind.startsWith('expect')).map((m) => m.label), [/^expect \(line 27\): PASS \/web Running = 3;/, /line 33/, /line 36/, /line 43/]);
  t.match(data.marks.find((m) => m.kind === 'deployment'), { atMs: 0, label: /^deployment \w{8}: StartApplication \/web, ScaleApplication \/web$/ });
  t.match(data.counts.at(-1), { runSpecId: '/web', running: 3, alive: 3 });
  t.ok(Math.max(...data.counts.map((c) => c.alive)) === 4, 'four live instances while the partitioned one and its replacement both run');
});

t.test('an unreachable instance the core forgets without an event ends at its expunge, not at the end of the run', async (t) => {
  const scenario = load('scenarios/faults/agent-loss.yaml');
  const result = runScenario(scenario, { keepTrace: true });
  const expunged = result.decisions.find((d) => d.decision.kind === 'expunged');
  if (expunged === undefined) throw new Error('agent-loss.yaml expunges /quick\'s unreachable instance');
  const segments = reportData(scenario, result).segments.filter((s) => s.instanceId === expunged.decision.instanceId);
  t.equal(segments.at(-1)?.toMs, expunged.atMs);
  t.ok(expunged.atMs < result.virtualMs);
});

t.test('lanes: instances on one agent at once get lanes of their own; a lane is reused once free; agents without instances keep a row', async (t) => {
  const lanes = assignLanes(['a1', 'a2', 'a3'], [
    { instanceId: 'x', agentId: 'a1', fromMs: 0, toMs: 10 },
    { instanceId: 'y', agentId: 'a1', fromMs: 5, toMs: 20 },
    { instanceId: 'z', agentId: 'a1', fromMs: 10, toMs: 30 },
    { instanceId: 'w', agentId: null, fromMs: 0, toMs: 5 },
    { instanceId: 'v', agentId: 'a9', fromMs: 0, toMs: 5 },
  ]);
  t.strictSame(lanes.rows.map((r) => [r.key, r.label]), [
    ['a1#0', 'a1'], ['a1#1', ''], ['a2#0', 'a2'], ['a3#0', 'a3'], ['a9#0', 'a9'], ['(unplaced)#0', '(unplaced)'],
  ]);
  t.strictSame(['x', 'y', 'z'].map((id) => lanes.rowOf('a1', id)), ['a1#0', 'a1#1', 'a1#0']);
  t.equal(lanes.rowOf(null, 'w'), '(unplaced)#0');
  t.strictSame(lanes.rowsOf('a1'), ['a1#0', 'a1#1']);
});

t.test('the page is self-contained: the libraries inline, no address to fetch, text from the file escaped', async (t) => {
  const text = readFileSync('scenarios/partition.yaml', 'utf8').replace(/^description: >\n(  .*\n)+/m, 'description: "</script><script>alert(1)</script> & <b>"\n')
    .replace(/^name: partition$/m, 'name: "p</script><!--"');
  const scenario = load('x.yaml', text);
  const html = renderReport(scenario, runScenario(scenario, { keepTrace: true }), 'npm run sim -- x.yaml --seed 7');
  t.notMatch(html, /<(script|link|img)[^>]+(src|href)=/i, 'nothing loaded from elsewhere');
  t.match(html, /d3js\.org v7/, 'd3 inlined');
  t.match(html, /@observablehq\/plot v0\.6/, 'Observable Plot inlined');
  t.match(html, '<p>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</p>', 'the description is text');
  t.equal((html.match(/<\/script>/g) ?? []).length, (html.match(/<script[ >]/g) ?? []).length, 'every script element ends where it should');
  t.match(html, '"name":"p\\u003c/script>\\u003c!--"', 'the name inside the embedded data cannot end its element');
  t.match(html, '<h1>Scenario p&lt;/script&gt;&lt;!--', 'and is text in the heading');
  t.match(html, /<table id="decisions">[\s\S]*kill web\.instance-\w{8} of \/web on agent-4: scale-down/);
});
