/**
 * Golden trace hashes: the SHA-256 of every scenario's trace at its own seed, committed in
 * `scenarios/hashes.json`. A behaviour change of the core or the simulator changes some hashes;
 * the scenario test then fails until `npm run sim -- hashes --update` rewrites the file, so every
 * change of behaviour is a reviewed diff of that file instead of passing silently whenever the
 * expectations still hold.
 */

/** Where the committed hashes live, relative to the repository root. */
export const GOLDEN_HASHES_FILE = 'scenarios/hashes.json';

/** Scenario file (relative, `/`-separated) → its trace's SHA-256 in hex. */
export type GoldenHashes = Readonly<Record<string, string>>;

/** One scenario whose trace hash differs from the committed one (or has none, or no longer exists). */
export interface HashDifference {
  readonly file: string;
  /** The committed hash; undefined when the file has none. */
  readonly expected?: string;
  /** The hash of this run; undefined when the scenario no longer exists. */
  readonly actual?: string;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Parses the committed file: an object of file → hex SHA-256. Returns a message on anything else,
 * so that a hand-edited file fails loudly instead of comparing against nothing.
 */
export function parseGoldenHashes(text: string): GoldenHashes | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return `${GOLDEN_HASHES_FILE}: not JSON (${(e as Error).message})`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${GOLDEN_HASHES_FILE}: expected an object of file → sha256`;
  for (const [file, hash] of Object.entries(parsed)) {
    if (typeof hash !== 'string' || !HEX_SHA256.test(hash)) return `${GOLDEN_HASHES_FILE}: ${file}: expected a hex sha256, got ${JSON.stringify(hash)}`;
  }
  return parsed as GoldenHashes;
}

/** The file's text for a set of hashes: sorted keys, one per line, so diffs stay readable. */
export function formatGoldenHashes(hashes: GoldenHashes): string {
  const sorted: Record<string, string> = {};
  for (const file of Object.keys(hashes).sort(byCodeUnits)) sorted[file] = hashes[file];
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** Every scenario whose hash is new, changed or gone, sorted by file. */
export function compareGoldenHashes(expected: GoldenHashes, actual: GoldenHashes): HashDifference[] {
  const files = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const out: HashDifference[] = [];
  for (const file of [...files].sort(byCodeUnits)) {
    if (expected[file] !== actual[file]) out.push({ file, expected: expected[file], actual: actual[file] });
  }
  return out;
}

/** One readable line per difference. */
export function describeDifference(d: HashDifference): string {
  if (d.expected === undefined) return `${d.file}: new scenario, no committed hash (actual ${d.actual})`;
  if (d.actual === undefined) return `${d.file}: committed hash for a scenario that no longer exists`;
  return `${d.file}: trace changed (committed ${d.expected.slice(0, 12)}…, actual ${d.actual.slice(0, 12)}…)`;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
