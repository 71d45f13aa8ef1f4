import seedrandom from 'seedrandom';
import type { Random } from '../src/scheduler/ports/random';
import type { WorldStreams } from './sim-context';

/**
 * One seed → one independent seedrandom stream per subsystem, seeded with `${seed}/${name}`, so a
 * new draw in one subsystem never shifts another (architecture §3.1). Each stream is seeded by
 * name, so the order of forking does not matter. The same seed always yields
 * the same sequences, in one process or two.
 */
export function createWorldStreams(seed: number | string): WorldStreams {
  const fork = (name: keyof WorldStreams): Random => {
    const rng = seedrandom(`${seed}/${name}`);
    return { next: () => rng() };
  };
  return {
    ids: fork('ids'),
    offers: fork('offers'),
    tasks: fork('tasks'),
    health: fork('health'),
    faults: fork('faults'),
    workload: fork('workload'),
  };
}
