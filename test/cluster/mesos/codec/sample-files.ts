import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../../../harness/repo-path';

/**
 * The recorded Mesos wire samples, kept in the repository (a copy of ../shared/mesos-samples; see
 * samples/README.md for what each file is, and samples/INDEX.md for the pb <-> json pairing of
 * events). Every reader throws when a file is missing: no test skips for want of a sample.
 */
export const SAMPLES_DIR = repoPath('test', 'cluster', 'mesos', 'codec', 'samples');

/** The bytes of one sample file, by path relative to the samples directory. */
export function readSample(relativePath: string): Uint8Array {
  return new Uint8Array(readFileSync(join(SAMPLES_DIR, relativePath)));
}

/** A sample file parsed as JSON. */
export function readSampleJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(SAMPLES_DIR, relativePath), 'utf8'));
}

/**
 * The names of the files in a sample directory with the given extension, sorted (= arrival
 * order); throws when there are none, so that a loop over them cannot pass by doing nothing.
 */
export function listSamples(relativeDir: string, extension: string): string[] {
  const names = readdirSync(join(SAMPLES_DIR, relativeDir))
    .filter((name) => name.endsWith(extension))
    .sort();
  if (names.length === 0) throw new Error(`no ${extension} sample in ${join(SAMPLES_DIR, relativeDir)}`);
  return names;
}

/** One row of INDEX.md's events table: a pb record and its JSON-run counterpart. */
export interface EventPair {
  readonly pb: string;
  readonly json: string;
}

/** The pb/json event pairs INDEX.md lists (rows whose counterpart is `-` are left out). */
export function indexedEventPairs(): EventPair[] {
  const index = readFileSync(join(SAMPLES_DIR, 'INDEX.md'), 'utf8');
  const pairs: EventPair[] = [];
  for (const match of index.matchAll(/^\| (\d{3}-[A-Z_]+\.bin) \| (\d{3}-[A-Z_]+\.json) \|/gm)) {
    pairs.push({ pb: match[1] as string, json: match[2] as string });
  }
  if (pairs.length === 0) throw new Error(`INDEX.md in ${SAMPLES_DIR} lists no pb/json event pair`);
  return pairs;
}
