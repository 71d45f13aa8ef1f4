import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The recorded Mesos wire samples (a copy of /work/shared/mesos-samples; see samples/README.md
 * for what each file is, and samples/INDEX.md for the pb <-> json pairing of events).
 */
export const SAMPLES_DIR = join(__dirname, 'samples');

/** The bytes of one sample file, by path relative to the samples directory. */
export function readSample(relativePath: string): Uint8Array {
  return new Uint8Array(readFileSync(join(SAMPLES_DIR, relativePath)));
}

/** A sample file parsed as JSON. */
export function readSampleJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(SAMPLES_DIR, relativePath), 'utf8'));
}

/** The names of the files in a sample directory with the given extension, sorted (= arrival order). */
export function listSamples(relativeDir: string, extension: string): string[] {
  return readdirSync(join(SAMPLES_DIR, relativeDir))
    .filter((name) => name.endsWith(extension))
    .sort();
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
  return pairs;
}
