import { join } from 'node:path';
import type { CliIo } from '../runner/cli-io';
import { printUsage, usageMistake } from '../runner/cli-args';
import { boundLine } from '../runner/format-summary';
import { runScenario } from '../runner/run-scenario';
import { loadScenario } from '../scenario/load-scenario';
import {
  compareGoldenHashes, describeDifference, formatGoldenHashes, GOLDEN_HASHES_FILE, parseGoldenHashes,
  type GoldenHashes,
} from './golden-hashes';
import { findScenarioFiles } from './scenario-files';

const USAGE = `usage: npm run sim -- hashes [--update]

Runs every scenario under scenarios/ at its own seed and compares each trace's SHA-256 with the
committed ${GOLDEN_HASHES_FILE}. Exits 0 when all match, 1 when one differs (each difference is
listed), 2 when a scenario does not load, fails, or is stopped by the bound on a run's loop steps.

  --update   write the current hashes to ${GOLDEN_HASHES_FILE} (review the diff before committing:
             every changed line is a change of the scheduler's behaviour)`;

/** `npm run sim -- hashes [--update]`, run from the repository root (`root`). */
export function hashesCliMain(argv: readonly string[], io: CliIo, root = process.cwd()): number {
  if (argv.includes('--help') || argv.includes('-h')) return printUsage(io, USAGE);
  const update = argv.includes('--update');
  const unknown = argv.filter((a) => a !== '--update');
  if (unknown.length > 0) return usageMistake(io, 'sim hashes', `unexpected ${unknown.map((a) => JSON.stringify(a)).join(' ')}`, 'npm run sim -- hashes --help');
  const actual: Record<string, string> = {};
  for (const file of findScenarioFiles(root)) {
    const loaded = loadScenario(file, io.readFile(join(root, file)));
    if (!loaded.ok) {
      io.stderr(`${loaded.errors.join('\n')}\n`);
      return 2;
    }
    const result = runScenario(loaded.scenario);
    if (!result.passed) {
      io.stderr(`${boundLine(file, result) ?? `${file}: FAILED (npm run sim -- ${file})`}\n`);
      return 2;
    }
    actual[file] = result.traceHash;
  }
  const path = join(root, GOLDEN_HASHES_FILE);
  if (update) {
    io.writeFile(path, formatGoldenHashes(actual));
    io.stdout(`wrote ${Object.keys(actual).length} hashes to ${GOLDEN_HASHES_FILE}\n`);
    return 0;
  }
  let committed: GoldenHashes | string;
  try {
    committed = parseGoldenHashes(io.readFile(path));
  } catch (e) {
    committed = `${GOLDEN_HASHES_FILE}: ${(e as Error).message}`;
  }
  if (typeof committed === 'string') {
    io.stderr(`${committed}\n`);
    return 2;
  }
  const differences = compareGoldenHashes(committed, actual);
  for (const d of differences) io.stdout(`${describeDifference(d)}\n`);
  io.stdout(`${Object.keys(actual).length} scenarios, ${differences.length} differ from ${GOLDEN_HASHES_FILE}\n`);
  return differences.length === 0 ? 0 : 1;
}
