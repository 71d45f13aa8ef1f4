import type { KillSelection } from '../../scheduler/model/run-spec';
import type { WireObject } from './wire-object';

const KILL_SELECTIONS: readonly KillSelection[] = ['YOUNGEST_FIRST', 'OLDEST_FIRST'];

/**
 * Reads `holder[key]`: `YOUNGEST_FIRST` (default) or `OLDEST_FIRST`, accepted in any case
 * (`Youngest_First` occurs in examples) and returned in the canonical upper case.
 */
export function killSelectionFromWire(holder: WireObject | undefined, key: string): KillSelection {
  const given = holder?.optionalString(key);
  if (holder === undefined || given === undefined) return 'YOUNGEST_FIRST';
  const upper = given.toUpperCase();
  const known = KILL_SELECTIONS.find((k) => k === upper);
  if (known !== undefined) return known;
  holder.fail(key, `killSelection must be one of ${KILL_SELECTIONS.join(', ')}`);
  return 'YOUNGEST_FIRST';
}
