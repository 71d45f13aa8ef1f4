#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadScenario } from '../sim/scenario/load-scenario';
import { checkDefinitions } from '../sim/runner/convert-definitions';
import { formatSummary } from '../sim/runner/format-summary';
import { createRunSession } from '../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../sim/runner/virtual-epoch';
import { paceSession } from './runtime/pace-session';

/**
 * Composition root. Today pacer runs its scheduler core against the simulated cluster paced in
 * real time (`--cluster sim`), streaming the core's events as JSON lines: the REST API, the local
 * process cluster and the Mesos driver are the next issues and will be wired here.
 */
const USAGE = `usage: npm start -- [--cluster sim] [--workload FILE] [--speed N] [--seed N]

  --cluster sim     the cluster to schedule on (only "sim" is available yet; "local" and "mesos" follow)
  --workload FILE   a scenario file giving the cluster shape and workload (default scenarios/demo.yaml)
  --speed N         virtual milliseconds per wall-clock millisecond (default 10)
  --seed N          override the workload's seed
Environment: PACER_CLUSTER, PACER_WORKLOAD, PACER_SPEED, PACER_SEED.`;

interface MainArgs {
  cluster: string;
  workload: string;
  speed: number;
  seed?: number;
}

function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): MainArgs | string {
  const out: MainArgs = {
    cluster: env.PACER_CLUSTER ?? 'sim',
    workload: env.PACER_WORKLOAD ?? resolve(__dirname, '..', '..', 'scenarios', 'demo.yaml'),
    speed: Number(env.PACER_SPEED ?? 10),
    seed: env.PACER_SEED === undefined ? undefined : Number(env.PACER_SEED),
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--help' || flag === '-h') return '';
    if (value === undefined) return `${flag}: missing value`;
    i++;
    if (flag === '--cluster') out.cluster = value;
    else if (flag === '--workload') out.workload = value;
    else if (flag === '--speed') out.speed = Number(value);
    else if (flag === '--seed') out.seed = Number(value);
    else return `unknown option ${flag}`;
  }
  if (out.cluster !== 'sim') return `--cluster ${out.cluster}: not available yet (only "sim"; "local" and "mesos" are being built)`;
  if (!(out.speed > 0)) return '--speed: expected a positive number';
  if (out.seed !== undefined && !(Number.isInteger(out.seed) && out.seed >= 0)) return '--seed: expected a non-negative integer';
  return out;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), process.env);
  if (typeof args === 'string') {
    if (args !== '') process.stderr.write(`pacer: ${args}\n\n`);
    process.stderr.write(`${USAGE}\n`);
    return args === '' ? 0 : 2;
  }
  const loaded = loadScenario(args.workload, readFileSync(args.workload, 'utf8'));
  if (!loaded.ok) {
    process.stderr.write(`${loaded.errors.join('\n')}\n`);
    return 2;
  }
  const errors = checkDefinitions(args.workload, loaded.scenario);
  if (errors.length > 0) {
    process.stderr.write(`${errors.join('\n')}\n`);
    return 2;
  }
  const session = createRunSession(loaded.scenario, { seed: args.seed });
  session.onEvent((_atMs, event) => process.stdout.write(`${JSON.stringify(event)}\n`));
  process.stderr.write(`pacer: scheduling "${loaded.scenario.name}" on the simulated cluster at ${args.speed}x real time (Ctrl-C stops)\n`);
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  await paceSession(session, VIRTUAL_EPOCH_MS, args.speed, abort.signal);
  const result = session.finish();
  process.stderr.write(`${formatSummary(result, `npm start -- --workload ${args.workload} --seed ${result.seed}`)}\n`);
  return result.passed ? 0 : 1;
}

main().then((code) => {
  process.exitCode = code;
}, (e: unknown) => {
  process.stderr.write(`pacer: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
