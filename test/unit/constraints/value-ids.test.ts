import t from 'tap';
import type { AgentAttribute, AgentInfo } from '../../../src/scheduler/model/agent';
import { compileConstraints } from '../../../src/scheduler/constraints/compile-constraints';
import { PlacementCounts } from '../../../src/scheduler/constraints/placement-counts';
import { MAX_VALUE_IDS, NO_VALUE, VALUE_IDS, ValueIds } from '../../../src/scheduler/constraints/value-ids';

function agent(hostname: string, attrs: Record<string, string | number> = {}, zone?: string): AgentInfo {
  const attributes: AgentAttribute[] = Object.entries(attrs).map(([name, v]): AgentAttribute =>
    typeof v === 'string' ? { name, type: 'text', text: v } : { name, type: 'scalar', scalar: v });
  return { agentId: `id-${hostname}`, hostname, zone, attributes };
}

/** A small deterministic generator (the walks below must be the same on every run). */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  };
}

t.test('interning: ids per field dense from 0, stable, the same as a Map model', async (t) => {
  const cases: { name: string; ops: [string, string][] }[] = [
    { name: 'one field', ops: [['rack', 'r1'], ['rack', 'r2'], ['rack', 'r1'], ['rack', 'r3']] },
    { name: 'fields numbered apart', ops: [['rack', 'r1'], ['@zone', 'r1'], ['@zone', 'z2'], ['rack', 'r2'], ['@zone', 'r1']] },
    { name: 'texts that look alike stay apart', ops: [['rack', '1'], ['rack', '1.0'], ['rack', ' 1'], ['rack', '']] },
  ];
  for (const c of cases) {
    const registry = new ValueIds(1000);
    const model = new Map<string, Map<string, number>>();
    for (const [fieldName, text] of c.ops) {
      const field = registry.field(fieldName);
      const modelField = model.get(fieldName) ?? new Map<string, number>();
      model.set(fieldName, modelField);
      const want = modelField.get(text) ?? modelField.size;
      modelField.set(text, want);
      const id = registry.idOf(field, text);
      t.equal(id, want, `${c.name}: ${fieldName}=${JSON.stringify(text)}`);
      t.equal(field.texts[id], text, `${c.name}: the id's text`);
      t.equal(registry.field(fieldName), field, `${c.name}: one numbering per field`);
    }
    const values = [...model.values()].reduce((n, m) => n + m.size, 0);
    t.equal(registry.size, model.size + values, `${c.name}: size counts fields and values`);
  }
});

t.test('idOn: an agent value read once per agent, field and epoch; NO_VALUE when it lacks the field', async (t) => {
  const registry = new ValueIds(1000);
  const host = registry.field('@hostname');
  const rack = registry.field('rack');
  const zone = registry.field('@zone');
  const a = agent('a', { rack: 'r1' }, 'z1');
  const b = agent('b', { rack: 'r1' });
  const rows: [AgentInfo, typeof host, number][] = [
    [a, host, 0], [a, rack, 0], [b, rack, 0], [b, host, 1], [b, zone, NO_VALUE], [a, zone, 0], [a, host, 0],
  ];
  for (const [ag, field, want] of rows) t.equal(registry.idOn(ag, field), want, `${ag.hostname} ${field.name}`);
  t.equal(registry.size, 3 + 4, 'three fields, four values (a, b, r1, z1)');
  registry.startOver();
  const host2 = registry.field('@hostname');
  t.not(host2, host, 'a new numbering after a start-over');
  t.equal(registry.idOn(b, host2), 0, 'the agent cache is of the old epoch: read again');
  t.equal(registry.idOn(a, host2), 1);
});

t.test('the bound: starts over only past maxValues, and only when asked', async (t) => {
  const rows: { max: number; values: number; startsOver: boolean }[] = [
    { max: 10, values: 8, startsOver: false }, // 1 field + 8 values = 9
    { max: 10, values: 9, startsOver: false }, // 10: at the bound
    { max: 10, values: 10, startsOver: true },
    { max: 0, values: 0, startsOver: true }, // the field alone is over
  ];
  for (const row of rows) {
    const registry = new ValueIds(row.max);
    const f = registry.field('rack');
    for (let i = 0; i < row.values; i++) registry.idOf(f, `r${i}`);
    t.equal(registry.size, row.values + 1, `${JSON.stringify(row)}: interning never starts over by itself`);
    t.equal(registry.startOverIfFull(), row.startsOver, JSON.stringify(row));
    t.same([registry.epoch, registry.size], row.startsOver ? [1, 0] : [0, row.values + 1]);
  }
  t.equal(VALUE_IDS.maxValues, MAX_VALUE_IDS, 'the process-wide registry holds the documented bound');
  t.equal(MAX_VALUE_IDS, 1_048_576);
});

/** The counters as they were before interning (strings in a Map): the model FieldCounts must match. */
class ModelField {
  readonly counts = new Map<string, number>();
  none = 0;
  total = 0;
  anchor: string | undefined = undefined;
  add(v: string | undefined): void {
    if (this.total === 0) this.anchor = v;
    this.total++;
    if (v === undefined) this.none++;
    else this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
  }
  remove(v: string | undefined): void {
    let emptied: boolean;
    if (v === undefined) emptied = --this.none === 0;
    else {
      const n = (this.counts.get(v) ?? 0) - 1;
      if (n === 0) this.counts.delete(v);
      else this.counts.set(v, n);
      emptied = n === 0;
    }
    this.total--;
    if (this.total === 0) this.anchor = undefined;
    else if (emptied && v === this.anchor) this.anchor = this.counts.keys().next().value;
  }
  groups(): number[] {
    const sizes = [...this.counts.values()];
    if (this.none > 0) sizes.push(this.none);
    return sizes;
  }
}

t.test('counters by id match the string model over random walks, across start-overs and sparse ids', async (t) => {
  const cases = [
    // A registry small enough to start over every few steps.
    { name: 'start-overs', max: 12, agents: 20, steps: 3000, seed: 7, probes: 1, eager: false },
    // The same, the counters renumbered at each start-over as the matcher does for the core's run specs.
    { name: 'start-overs, renumbered at once', max: 12, agents: 20, steps: 3000, seed: 7, probes: 1, eager: true },
    // Many agents, few instances: ids beyond the dense array (the sparse map), then dense growth.
    // (offers of many agents read, few instances placed: probes intern ten values a step).
    { name: 'sparse ids', max: 1_000_000, agents: 5000, steps: 3000, seed: 11, probes: 10, eager: false },
    { name: 'both', max: 2000, agents: 5000, steps: 3000, seed: 13, probes: 10, eager: true },
  ];
  for (const c of cases) {
    const registry = new ValueIds(c.max);
    const compiled = compileConstraints([
      { field: 'hostname', operator: 'UNIQUE' },
      { field: 'rack', operator: 'GROUP_BY' },
      { field: '@zone', operator: 'CLUSTER' },
    ]);
    const counts = new PlacementCounts(compiled, registry);
    const fieldOf = [(a: AgentInfo) => a.hostname, (a: AgentInfo) => {
      const r = a.attributes.find((x) => x.name === 'rack');
      return r?.type === 'text' ? r.text : undefined;
    }, (a: AgentInfo) => a.zone];
    const models = [new ModelField(), new ModelField(), new ModelField()];
    const agents = Array.from({ length: c.agents }, (_, i) => agent(`h${i}`, i % 7 === 6 ? {} : { rack: `r${i % 50}` }, i % 5 === 4 ? undefined : `z${i % 3}`));
    const next = lcg(c.seed);
    const placed: AgentInfo[] = [];
    let mismatches = 0;
    let startOvers = 0;
    let sparseSeen = 0;
    for (let step = 0; step < c.steps; step++) {
      // The matcher's safe point, between changes.
      if (registry.startOverIfFull()) {
        startOvers++;
        if (c.eager) counts.renumber();
      }
      if (placed.length > 0 && next(5) < 2) {
        const [gone] = placed.splice(next(placed.length), 1);
        counts.remove(gone);
        models.forEach((m, k) => m.remove(fieldOf[k](gone)));
      } else {
        // Sometimes a fresh object for an agent already seen (offers bring new ones).
        const base = agents[next(agents.length)];
        const a = next(4) === 0 ? { ...base } : base;
        placed.push(a);
        counts.add(a);
        models.forEach((m, k) => m.add(fieldOf[k](a)));
      }
      for (let p = 0; p < c.probes; p++) {
        const probe = agents[next(agents.length)];
        for (let k = 0; k < 3; k++) {
          const f = counts.field(k);
          const m = models[k];
          const v = fieldOf[k](probe);
          const id = f.idOn(probe);
          // Only the CLUSTER field (2) keeps its anchor.
          const got = [f.total, f.withoutValue, f.distinctValues, k === 2 ? f.clusterValue : m.anchor, v === undefined ? NO_VALUE : f.countOfId(id), v === undefined ? 0 : f.countOf(v)];
          const want = [m.total, m.none, m.counts.size, m.anchor, v === undefined ? NO_VALUE : m.counts.get(v) ?? 0, v === undefined ? 0 : m.counts.get(v) ?? 0];
          if (v === undefined && id !== NO_VALUE) mismatches++;
          if (k === 2 && m.total > 0 && v !== undefined && (f.clusterId === id) !== (m.anchor === v)) mismatches++;
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            if (mismatches++ === 0) t.same(got, want, `${c.name}: step ${step}, field ${k}`);
          }
        }
      }
      // The hostname counters' map for ids beyond the array (private: read to know the walk went there).
      if ((counts.field(0)['sparse']?.size ?? 0) > 0) sparseSeen++;
      const rack = counts.field(1);
      const sizes = models[1].groups();
      if (rack.groupCount !== sizes.length || rack.minGroupCount !== (sizes.length === 0 ? 0 : Math.min(...sizes))) mismatches++;
    }
    t.equal(mismatches, 0, `${c.name}: no mismatch`);
    if (!c.name.startsWith('start-overs')) t.ok(sparseSeen > 0, `${c.name}: some hostnames were counted beyond the array (${sparseSeen} steps)`);
    if (c.name !== 'sparse ids') t.ok(startOvers > 0, `${c.name}: started over ${startOvers} times`);
    t.ok(registry.size <= c.max + 3 * c.agents, `${c.name}: the registry stays bounded (${registry.size})`);
  }
});
