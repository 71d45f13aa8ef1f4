import type { ApiFailure } from './client';

/**
 * What a polled page keeps of its last answer when a read fails: all of it while pacer is
 * unreachable or answers an error (the page stays readable under the error), nothing when the
 * answer is 404: the app, pod or deployment is gone (deleted elsewhere), and showing its last
 * instances as running, with buttons to act on it, would say otherwise.
 */
export function keptAfterFailure<T>(last: T | undefined, failure: ApiFailure): T | undefined {
  return failure.status === 404 ? undefined : last;
}
