/**
 * The report page's own script (plain browser JavaScript, run after d3 and Observable Plot):
 * reads the embedded data (`#report-data`) and draws the charts with Plot.
 * - `#timeline`: a row per agent lane; each instance's stretches coloured by condition (legend),
 *   and a row per run spec of its unplaced instances, each stretch naming how many wait;
 *   faults shaded behind them (partitions, lost agents), crashes as ×, deployments, expectations
 *   and timeline steps as vertical rules. Every shape has a `<title>` (hover, and what the
 *   browser test reads); each mark's group has an `aria-description` naming what it draws.
 * - `#counts`: running (solid) and live (dashed) instances per app over time, with the same rules.
 * A failure to draw is shown in the page (`#report-error`), not only in the console.
 */
export const REPORT_CLIENT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var CONDITIONS = ['Scheduled', 'Provisioned', 'Staging', 'Starting', 'Running', 'Killing', 'Unreachable', 'UnreachableInactive', 'Unknown'];
  var COLORS = ['#e7ba52', '#9ecae1', '#6baed6', '#4292c6', '#31a354', '#fd8d3c', '#9e66c9', '#54278f', '#525252'];
  function fmt(ms) {
    var s = ms / 1000, h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + 'h' : '') + (h || m ? m + 'm' : '') + (Number.isInteger(sec) ? sec : sec.toFixed(1)) + 's';
  }
  var seconds = function (key) { return function (d) { return d[key] / 1000; }; };
  var width = Math.max(960, Math.min(1600, document.body.clientWidth - 32));
  // Ticks at a round step (1s … 1h) giving at most 16 of them.
  var STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];
  var span = data.durationMs / 1000;
  var step = STEPS.find(function (s) { return span / s <= 16; }) || 86400;
  var ticks = [];
  for (var t = 0; t <= span + 1e-9; t += step) ticks.push(t);
  var x = { domain: [0, span], ticks: ticks, label: 'virtual time', tickFormat: function (v) { return fmt(v * 1000); } };
  var marksOf = function (kind) { return data.marks.filter(function (m) { return m.kind === kind; }); };
  var rule = function (kind, stroke, dash) {
    return Plot.ruleX(marksOf(kind), { x: seconds('atMs'), stroke: stroke, strokeWidth: 1.5, strokeDasharray: dash, title: 'label', ariaDescription: kind });
  };
  var rules = function () {
    return [
      rule('step', '#888', '2,3'),
      rule('deployment', '#1f77b4', '6,3'),
      rule('deployment finished', '#1f77b4', '1,2'),
      rule('deployment failed', '#d62728', '6,3'),
      rule('expect passed', '#2ca02c', null),
      rule('expect failed', '#d62728', null),
    ];
  };
  try {
    var labels = new Map(data.rows.map(function (r) { return [r.key, r.label]; }));
    var firsts = [];
    var seen = new Set();
    data.segments.forEach(function (s) {
      // A row of unplaced instances names how many wait in each of its stretches.
      var key = s.count === undefined ? s.row + ' ' + s.instanceId : s.row + ' ' + s.fromMs;
      if (!seen.has(key)) { seen.add(key); firsts.push(s); }
    });
    var longest = d3.max(data.rows, function (r) { return r.label.length; }) || 0;
    var timeline = Plot.plot({
      width: width, height: 70 + data.rows.length * 22, marginLeft: Math.max(110, Math.min(260, 10 + longest * 6.5)), marginTop: 30,
      x: x,
      y: { domain: data.rows.map(function (r) { return r.key; }), tickFormat: function (k) { return labels.get(k); }, label: null, padding: 0.2 },
      color: { type: 'ordinal', domain: CONDITIONS, range: COLORS, legend: true },
      marks: [
        Plot.barX(data.segments, {
          x1: seconds('fromMs'), x2: seconds('toMs'), y: 'row', fill: 'condition',
          title: function (d) {
            if (d.count !== undefined) return d.count + ' instance' + (d.count === 1 ? '' : 's') + ' of ' + d.runSpecId + ' unplaced (' + d.condition + ') ' + fmt(d.fromMs) + '–' + fmt(d.toMs);
            return d.label + ' of ' + d.runSpecId + (d.agentId ? ' on ' + d.agentId : ' (unplaced)') + ': ' + d.condition + ' ' + fmt(d.fromMs) + '–' + fmt(d.toMs);
          },
          ariaDescription: 'instances',
        }),
        Plot.text(firsts, {
          x: seconds('fromMs'), y: 'row', text: function (d) { return d.count === undefined ? d.label.slice(-8) : String(d.count); }, textAnchor: 'start', dx: 3, fontSize: 9, fill: 'white', ariaDescription: 'instance names',
        }),
        // Faults over the instances, translucent, outlined, and named where they start.
        Plot.barX(data.faults, {
          x1: seconds('fromMs'), x2: seconds('toMs'), y: 'row', insetTop: -2, insetBottom: -2,
          fill: function (f) { return f.kind === 'partition' ? '#d62728' : '#000'; }, fillOpacity: 0.22,
          stroke: function (f) { return f.kind === 'partition' ? '#d62728' : '#000'; }, strokeDasharray: '3,2',
          title: 'label', ariaDescription: 'faults',
        }),
        Plot.text(data.faults.filter(function (f, i, all) { return all.findIndex(function (g) { return g.label === f.label; }) === i; }), {
          x: seconds('fromMs'), y: 'row', text: 'kind', textAnchor: 'start', dx: 3, dy: -10, fontSize: 10, fontWeight: 'bold',
          fill: function (f) { return f.kind === 'partition' ? '#d62728' : '#000'; }, ariaDescription: 'fault names',
        }),
        Plot.dot(marksOf('crash'), { x: seconds('atMs'), y: 'row', symbol: 'times', r: 5, stroke: '#d62728', strokeWidth: 2, title: 'label', ariaDescription: 'crashes' }),
      ].concat(rules()),
    });
    document.getElementById('timeline').append(timeline);

    var ends = [];
    var last = new Map();
    data.counts.forEach(function (c) { last.set(c.runSpecId, c); });
    last.forEach(function (c) { ends.push({ runSpecId: c.runSpecId, atMs: data.durationMs, running: c.running, alive: c.alive }); });
    var counts = data.counts.concat(ends);
    var maxAlive = Math.max(1, d3.max(counts, function (c) { return c.alive; }) || 0);
    var yStep = Math.max(1, Math.ceil(maxAlive / 8));
    var yTicks = d3.range(0, maxAlive + 1, yStep);
    var chart = Plot.plot({
      width: width, height: 260, marginLeft: 110,
      x: x, y: { label: 'instances', grid: true, domain: [0, maxAlive], ticks: yTicks, tickFormat: 'd' },
      color: { legend: true },
      marks: [
        Plot.line(counts, { x: seconds('atMs'), y: 'alive', stroke: 'runSpecId', strokeDasharray: '4,3', strokeOpacity: 0.6, curve: 'step-after', ariaDescription: 'live instances' }),
        Plot.line(counts, { x: seconds('atMs'), y: 'running', stroke: 'runSpecId', strokeWidth: 2, curve: 'step-after', ariaDescription: 'running instances', title: 'runSpecId' }),
      ].concat(rules()),
    });
    document.getElementById('counts').append(chart);
    document.body.setAttribute('data-rendered', 'true');
  } catch (err) {
    var box = document.getElementById('report-error');
    box.textContent = 'The charts could not be drawn: ' + (err && err.stack ? err.stack : err);
    box.hidden = false;
    document.body.setAttribute('data-rendered', 'failed');
  }
})();
`;
