/**
 * What an instance runs: its run spec and kind, the version and config generation of the
 * definition it runs (or will run on its next launch), and the role its resources come from.
 *
 * Shared: the instances of one run spec that run one definition — a scale-up's million, a
 * recovery's — hold one object between them, immutable, instead of five fields each. An
 * {@link Instance} was 160 bytes with those five fields, 128 with this one pointer (and its
 * reservation, a resident run spec's, moved to its rare fields: 120), so a big scale-up keeps
 * 40 bytes less per instance, in memory the young-generation GC copies and, on a machine where a
 * first touch of a page is slow, pays for page by page (bench/README.md, "2026-12-02 15:40").
 * A change of one of the three changing fields gives the instance another target
 * ({@link with}), the one made for the last such change when it holds the same values, so that
 * retargeting a million instances to a new version makes one target, not a million.
 *
 * Compared by value, never by identity: two targets with the same fields mean the same thing.
 */
export class InstanceTarget {
  /** The target {@link with} gave last: the next instance retargeted the same way shares it. */
  #derived: InstanceTarget | undefined = undefined;

  private constructor(
    readonly runSpecId: string,
    readonly kind: 'app' | 'pod',
    readonly runSpecVersion: string,
    readonly configVersion: string,
    readonly role: string,
  ) {}

  /**
   * The target of these fields: the one this function made last when it holds the same values
   * (instances are made, and recovered, in runs of one run spec and definition), else a new one.
   */
  static of(f: TargetFields): InstanceTarget {
    const last = lastMade;
    if (last !== undefined && last.runSpecId === f.runSpecId && last.kind === f.kind && last.runSpecVersion === f.runSpecVersion
      && last.configVersion === f.configVersion && last.role === f.role) return last;
    const made = new InstanceTarget(f.runSpecId, f.kind, f.runSpecVersion, f.configVersion, f.role);
    lastMade = made;
    return made;
  }

  /** This target with another version, config generation and role (the same run spec and kind). */
  with(runSpecVersion: string, configVersion: string, role: string): InstanceTarget {
    if (runSpecVersion === this.runSpecVersion && configVersion === this.configVersion && role === this.role) return this;
    const d = this.#derived;
    if (d !== undefined && d.runSpecVersion === runSpecVersion && d.configVersion === configVersion && d.role === role) return d;
    const made = new InstanceTarget(this.runSpecId, this.kind, runSpecVersion, configVersion, role);
    this.#derived = made;
    return made;
  }
}

/** The fields of an {@link InstanceTarget}, as an instance's plain record has them. */
export interface TargetFields {
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
  readonly runSpecVersion: string;
  readonly configVersion: string;
  readonly role: string;
}

// The target `of` made last (module state as ids.ts keeps its last prefix: it changes which
// object is shared, never a value an instance reads).
let lastMade: InstanceTarget | undefined;
