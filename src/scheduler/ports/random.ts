/**
 * Randomness port. The core draws ids (and nothing else today) from it; the simulator forks one
 * seeded stream per subsystem so that a new draw in one place never shifts another.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
}
