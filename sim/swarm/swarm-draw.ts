import seedrandom from 'seedrandom';

/**
 * The swarm generator's source of choices: one seedrandom stream, named `${seed}/swarm-${name}`,
 * with the few shapes of draw the generator needs. Separate streams (cluster, workload, faults,
 * commands) keep one part of the generated scenario from shifting when another draws more or less.
 * Never Math.random: the same seed always gives the same scenario, in one process or two.
 */
export class SwarmDraw {
  private readonly rng: seedrandom.PRNG;

  constructor(seed: number, name: string) {
    this.rng = seedrandom(`${seed}/swarm-${name}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.rng();
  }

  /** A whole number in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.rng() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.rng() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.rng() * items.length)];
  }

  /** One element, chosen with the given relative weights. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let x = this.rng() * total;
    for (const [item, w] of entries) {
      if (x < w) return item;
      x -= w;
    }
    return entries[entries.length - 1][0];
  }

  /** `count` distinct elements in random order (all of them when `count` ≥ the length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.rng() * pool.length), 1)[0]);
    return out;
  }

  /** A multiple of `step` in [min, max] (for durations on a whole-second grid, resources in tenths). */
  grid(min: number, max: number, step: number): number {
    return this.int(Math.ceil(min / step), Math.floor(max / step)) * step;
  }
}
