import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { findScenarioFiles } from '../../../sim/golden/scenario-files';
import { convertDefinition } from '../../../sim/runner/convert-definitions';
import type { Scenario } from '../../../sim/scenario/scenario';
import { loadScenario } from '../../../sim/scenario/load-scenario';
import { generateScenario } from '../../../sim/swarm/generate-scenario';
import { appDefinitionJson } from '../../../src/marathon/render/app-definition-json';
import { podDefinitionJson } from '../../../src/marathon/render/pod-definition-json';
import { REPO_ROOT, repoPath } from '../../harness/repo-path';

/**
 * `convert(render(convert(x))) == convert(x)` over today's definitions of every scenario file and
 * of the swarm's generated workloads (the recorded corpus holds what they were at the redesign;
 * these are whatever they are now): the model survives its own Marathon JSON.
 */

const VERSION = '2026-01-01T00:00:00.000Z';

function definitionsOf(scenario: Scenario): { kind: 'app' | 'pod'; definition: Readonly<Record<string, unknown>> }[] {
  return scenario.timeline.flatMap((step) => {
    const a = step.action;
    if (a.type === 'app' || a.type === 'pod') return [{ kind: a.type, definition: a.definition }];
    return a.type === 'deploy' ? a.definitions.map((d) => ({ kind: d.kind, definition: d.definition })) : [];
  });
}

function roundTripProblems(name: string, scenario: Scenario): string[] {
  const problems: string[] = [];
  for (const d of definitionsOf(scenario)) {
    const first = convertDefinition(d.kind, d.definition, scenario.options.defaultRole, VERSION);
    if (!first.ok) continue;
    const json = first.spec.kind === 'app' ? appDefinitionJson(first.spec) : podDefinitionJson(first.spec);
    const again = convertDefinition(d.kind, json, scenario.options.defaultRole, VERSION);
    if (!again.ok || !isDeepStrictEqual(again.spec, first.spec)) problems.push(`${name} ${first.spec.id}: ${again.ok ? 'differs' : JSON.stringify(again.errors)}`);
  }
  return problems;
}

t.test('every scenario file\'s definitions round-trip', async (t) => {
  const files = findScenarioFiles(REPO_ROOT);
  t.ok(files.length > 20, `${files.length} scenario files`);
  const problems: string[] = [];
  let count = 0;
  for (const file of files) {
    const loaded = loadScenario(file, readFileSync(repoPath(file), 'utf8'));
    if (!loaded.ok) continue;
    count += definitionsOf(loaded.scenario).length;
    problems.push(...roundTripProblems(file, loaded.scenario));
  }
  t.ok(count > 50, `${count} definitions`);
  t.same(problems, []);
});

t.test('the swarm\'s workloads round-trip (seeds 0-39)', async (t) => {
  const problems: string[] = [];
  for (let seed = 0; seed < 40; seed++) problems.push(...roundTripProblems(`swarm ${seed}`, generateScenario(seed)));
  t.same(problems, []);
});
