/** The path of the one scheduler endpoint on a master (mesos-v1-scheduler-api.md §1.1). */
export const SCHEDULER_PATH = '/api/v1/scheduler';

/**
 * Normalises a master base URL to `http(s)://host:port`, without path or trailing slash. Throws a
 * clear Error for anything that is not an http(s) URL (a configuration mistake, caught at start).
 */
export function masterBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a master URL: ${JSON.stringify(url)} (expected http://host:port)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`not a master URL: ${JSON.stringify(url)} (expected http:// or https://)`);
  }
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * The leader a 307 points to. The master's `Location` is protocol-relative,
 * `//host:port/api/v1/scheduler` (§1.6; the docs' `masterhost2:5050` example is wrong, §9), so it
 * is resolved against the URL that was asked, keeping its scheme. Returns `undefined` for a
 * missing or unparsable Location.
 */
export function leaderFromLocation(askedBaseUrl: string, location: string | undefined): string | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    const resolved = new URL(location.trim(), `${askedBaseUrl}${SCHEDULER_PATH}`);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return undefined;
    return `${resolved.protocol}//${resolved.host}`;
  } catch {
    return undefined;
  }
}
