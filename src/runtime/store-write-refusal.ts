import { unavailable } from '../api/errors';
import type { PacerLog } from './pacer-log';
import type { RuntimeStore } from './runtime-store';

/**
 * The loop's `beforeCommand` (real-time-loop.ts) for `store`: while the store says it cannot keep
 * a change (`writeRefusal`: the SQLite file removed, replaced, not writable, or too little free
 * space), every API command is refused with 503 and the reason, before the core sees it — so the
 * client holds no 2xx for a change that was not written, reads go on, and pacer keeps running.
 * Nothing is remembered between commands: once the cause is gone the next change is taken. The
 * log (component `store`) says when refusing starts (`error`, with the reason) and when it ends
 * (`info`), once each, not per request.
 */
export function refuseChangesWhileUnwritable(store: RuntimeStore, log: PacerLog): () => void {
  const storeLog = log.child({ component: 'store' });
  let refusing: string | undefined;
  return () => {
    const reason = store.writeRefusal?.();
    if (reason !== refusing) {
      if (reason !== undefined) storeLog.error(`${reason}: API changes are answered 503`);
      else storeLog.info('the store takes changes again');
      refusing = reason;
    }
    if (reason !== undefined) throw unavailable(`pacer cannot store changes now: ${reason}`);
  };
}
