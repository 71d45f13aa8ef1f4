/**
 * Whether an `Accept` header asks for the event stream. Marathon serves `/v2/events` only when an
 * Accept value is exactly `text/event-stream` (fact 101). pacer is a little more liberal, as a
 * client would expect: any media range of the (possibly comma-joined) header whose type is
 * `text/event-stream`, in any case and with any parameters. Wildcards (`*` + `/*`) do not count,
 * as in Marathon.
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  for (const range of accept.split(',')) {
    const semicolon = range.indexOf(';');
    const type = (semicolon < 0 ? range : range.slice(0, semicolon)).trim().toLowerCase();
    if (type === 'text/event-stream') return true;
  }
  return false;
}
