/**
 * Appends `items` to `list`, in order: in one push of up to {@link APPEND_CHUNK} at a time, so that
 * the list's backing store grows once for a batch instead of about a dozen times for a thousand
 * single pushes (each growth a copy of the list and the old store left as garbage). A scale-up
 * appends up to `instancesPerInput` new instances to three lists (issue 13: two single pushes per
 * instance cost ~7 % of bench:match's queue build). The chunk bounds the arguments of one call.
 */
export function appendAll<T>(list: T[], items: readonly T[]): void {
  const n = items.length;
  if (n <= APPEND_CHUNK) {
    list.push(...items);
    return;
  }
  for (let at = 0; at < n; at += APPEND_CHUNK) list.push(...items.slice(at, at + APPEND_CHUNK));
}

/** Items pushed by one call at most (well within the arguments a call may take). */
export const APPEND_CHUNK = 4096;
