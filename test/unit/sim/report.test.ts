import { readFileSync } from 'node:fs';
import t from 'tap';
import { runScenario } from '../../../sim/runner/run-scenario';
import { loadScenario } from '../../../sim/scenario/load-scenario';
import type { Scenario } from '../../../sim/scenario/scenario';
import { assignLanes } from '../../../sim/report/assign-lanes';
import { capRows, TIMELINE_ROWS_MAX } from '../../../sim/report/cap-rows';
import { foldUnplaced } from '../../../sim/report/fold-unplaced';
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
    { instanceId: 'v', agentId: 'a9', fromMs: 0, toMs: 5 },
  ]);
  t.strictSame(lanes.rows.map((r) => [r.key, r.label, r.lane]), [
    ['a1#0', 'a1', 0], ['a1#1', '', 1], ['a2#0', 'a2', 0], ['a3#0', 'a3', 0], ['a9#0', 'a9', 0],
  ]);
  t.strictSame(['x', 'y', 'z'].map((id) => lanes.rowOf('a1', id)), ['a1#0', 'a1#1', 'a1#0']);
  t.strictSame(lanes.rowsOf('a1'), ['a1#0', 'a1#1']);
});

t.test('unplaced instances fold into one row per run spec: stretches of how many wait', async (t) => {
  const folded = foldUnplaced([
    { runSpecId: '/a', fromMs: 0, toMs: 10 },
    { runSpecId: '/a', fromMs: 0, toMs: 30 },
    { runSpecId: '/b', fromMs: 5, toMs: 10 },
    { runSpecId: '/a', fromMs: 20, toMs: 30 },
    { runSpecId: '/a', fromMs: 40, toMs: 50 },
  ]);
  t.strictSame(folded.rows.map((r) => [r.key, r.label, r.agentId]), [['(unplaced)#/a', '(unplaced) /a', null], ['(unplaced)#/b', '(unplaced) /b', null]]);
  t.strictSame(folded.summaries.map((s) => [s.row, s.fromMs, s.toMs, s.count]), [
    ['(unplaced)#/a', 0, 10, 2], ['(unplaced)#/a', 10, 20, 1], ['(unplaced)#/a', 20, 30, 2], ['(unplaced)#/a', 40, 50, 1],
    ['(unplaced)#/b', 5, 10, 1],
  ], 'no stretch while none waits');
});

t.test('the timeline\'s rows are capped: every agent\'s first lane and every unplaced row first, in display order', async (t) => {
  const row = (agentId: string | null, lane: number) => ({ key: `${agentId ?? '(unplaced)'}#${lane}`, agentId, label: '', lane });
  const rows = [row('a1', 0), row('a1', 1), row('a1', 2), row('a2', 0), row('a2', 1), row(null, 0)];
  const cases: [number, string[]][] = [
    [10, ['a1#0', 'a1#1', 'a1#2', 'a2#0', 'a2#1', '(unplaced)#0']],
    [4, ['a1#0', 'a1#1', 'a2#0', '(unplaced)#0']],
    [3, ['a1#0', 'a2#0', '(unplaced)#0']],
    [2, ['a1#0', 'a2#0']],
  ];
  for (const [max, keys] of cases) t.strictSame(capRows(rows, max).map((r) => r.key), keys, `at most ${max}`);
});

/** A cluster of one agent with room for `fit` instances of /grp/cons, which `timeline` (YAML lines) shapes. */
function oneAgent(fit: number, timeline: string): Scenario {
  return load('x.yaml', `name: x\nseed: 1\nduration: 2m\ncluster:\n  agents:\n    - count: 1\n      resources: { cpus: ${fit}, mem: ${fit * 64} }\ntimeline:\n${timeline}`);
}

t.test('an unplaced instance dropped by a scale-down ends there: one row of unplaced instances, bounded, counts back at the target', async (t) => {
  const scenario = oneAgent(3, [
    '  - { at: 0s, app: { id: /grp/cons, cmd: sleep 1000, instances: 2000, cpus: 1, mem: 64 } }',
    '  - { at: 30s, force: true, scale: { id: /grp/cons, instances: 3 } }',
    '',
  ].join('\n'));
  const result = runScenario(scenario, { keepTrace: true });
  const drops = result.decisions.filter((d) => d.decision.kind === 'kill' && d.decision.condition === 'Scheduled');
  t.equal(drops.length, 1997, 'the trace\'s events keep Scheduled; the decisions say "drop unplaced"');
  const data = reportData(scenario, result);
  t.strictSame(data.rows.filter((r) => r.agentId === null).map((r) => r.key), ['(unplaced)#/grp/cons'], 'one row for the 1997 that waited');
  t.strictSame(result.unplaced, [], 'none waits at the end');
  const waiting = data.segments.filter((s) => s.agentId === null);
  t.ok(waiting.length >= 1 && waiting.length <= 3, `a few stretches, not one per instance (${waiting.length})`);
  t.ok(waiting.every((s) => s.toMs <= 30_000), 'none after the drop at 30s');
  t.match(waiting[0], { fromMs: 0, count: 1997, label: '1997 unplaced', condition: 'Scheduled' });
  t.match(data.counts.filter((c) => c.atMs === 30_000).at(-1), { alive: 3 }, 'three live once they are dropped');
  t.ok(data.counts.length < 20, `one count sample per instant, not per change (${data.counts.length})`);
  t.equal(data.omitted, undefined);
  const html = renderReport(scenario, result, 'npm run sim -- x.yaml');
  t.ok(html.length < 2_000_000, `the page stays small (${html.length} characters)`);
  t.match(html, /<td>kill<\/td><td>drop unplaced \/grp\/cons ×1997: grp_cons\.instance-\w{8}, /, 'the drops are one row of the decisions table');
});

t.test('more lanes than the timeline draws: it draws the first rows and says how many more are not drawn', async (t) => {
  const scenario = oneAgent(450, '  - { at: 0s, app: { id: /many, cmd: sleep 1000, instances: 450, cpus: 1, mem: 64 } }\n');
  const result = runScenario(scenario, { keepTrace: true });
  const data = reportData(scenario, result);
  t.equal(data.rows.length, TIMELINE_ROWS_MAX);
  // 450 lanes on agent-1, and the row of the instances that waited for a second offer: kept, as each agent's first lane.
  t.strictSame(data.omitted, { rows: 451 - TIMELINE_ROWS_MAX, instances: 451 - TIMELINE_ROWS_MAX, max: TIMELINE_ROWS_MAX });
  t.strictSame(data.rows.filter((r) => r.lane === 0).map((r) => r.key), ['agent-1#0', '(unplaced)#/many']);
  const rows = new Set(data.rows.map((r) => r.key));
  t.ok(data.segments.every((s) => rows.has(s.row)), 'nothing drawn on a row left out');
  t.match(renderReport(scenario, result, 'npm run sim -- x.yaml'), `The timeline draws at most ${TIMELINE_ROWS_MAX} rows (each agent's first lane before its others): 51 more rows, with 51 instances, are not drawn.`);
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

t.test('the heading says the verdict the summary says: PASSED, FAILED, or STOPPED for a run its bound stopped with nothing failed (it said FAILED)', async (t) => {
  const partition = readFileSync('scenarios/partition.yaml', 'utf8');
  const rows: readonly { name: string; text: string; maxLoopSteps?: number; verdict: string; stopped?: RegExp }[] = [
    { name: 'a run that passed', text: partition, verdict: 'passed">PASSED' },
    { name: 'a run that failed', text: partition.replace('instances: { /web: { Running: 3, total: 3 } }', 'instances: { /web: { Running: 4 } }'), verdict: 'failed">FAILED' },
    {
      name: 'a run its bound on loop steps stopped before its expectations',
      text: partition, maxLoopSteps: 20, verdict: 'stopped">STOPPED',
      stopped: /<p id="stopped">stopped by its bound of 20 loop steps at [\d.]+s of 15m0\.000s, before its expectations; no verdict<\/p>/,
    },
    {
      name: 'a run stopped after an expectation failed',
      text: partition.replace('instances: { /web: { Running: 3, total: 3 } }', 'instances: { /web: { Running: 4 } }'), maxLoopSteps: 40, verdict: 'failed">FAILED',
      stopped: /<p id="stopped">FAILED: 1 expectation failed before it was stopped by its bound of 40 loop steps at /,
    },
  ];
  for (const row of rows) {
    const scenario = load('partition.yaml', row.text);
    const result = runScenario(scenario, { keepTrace: true, ...(row.maxLoopSteps === undefined ? {} : { maxLoopSteps: row.maxLoopSteps }) });
    const html = renderReport(scenario, result, 'npm run sim -- partition.yaml');
    t.match(html, `<h1>Scenario partition <span class="verdict ${row.verdict}</span></h1>`, row.name);
    if (row.stopped === undefined) t.notMatch(html, '<p id="stopped">', `${row.name}: not stopped`);
    else t.match(html, row.stopped, `${row.name}: where it stopped`);
  }
});
