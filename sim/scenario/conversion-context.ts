import type { DelayRange } from '../cluster/sim-models';
import { parseDurationMs } from './parse-duration';
import { childPointer, type Problem } from './problem';
import type { RawDelayRange, RawDuration } from './raw-scenario';
import { suggestName } from './suggest-name';

const LISTED_NAMES_MAX = 12;

function listNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, LISTED_NAMES_MAX).join(', ');
  return names.length > LISTED_NAMES_MAX ? `${shown}, … (${names.length} in all)` : shown;
}

/** `web` → `/web`: run spec ids as the scheduler knows them. */
export function absoluteRunSpecId(id: string): string {
  return id.startsWith('/') ? id : `/${id}`;
}

/**
 * What the semantic conversion of a scenario shares: the problems found so far, the run spec ids
 * the file defines, and the agents known at the point being converted. Readers return a usable
 * value even when they record a problem, so that conversion goes on and reports every problem.
 */
export class ConversionContext {
  readonly problems: Problem[] = [];
  /** Agent ids known at the current point of the timeline (initial agents, then added ones), with their group. */
  private readonly agentGroups = new Map<string, string>();
  private readonly hostnameGroups = new Map<string, string>();
  /** Groups already reported for a duplicate id or hostname (one report per group). */
  private readonly clashingGroups = new Set<string>();
  /** The highest agent number used so far per id prefix. */
  readonly agentNumbers = new Map<string, number>();
  /** Agents made so far by the cluster's groups and `addAgents` steps (bounded by SCENARIO_AGENTS_MAX). */
  agentsMade = 0;

  /**
   * False when a part of the file the schema refused may have named agents (an agent group or
   * `addAgents` step with a mistake of its own, reported already): from then on an agent id not
   * known is not reported, as it may be one of those.
   */
  agentsComplete = true;

  /**
   * The agents partitioned or killed at the current point of the timeline, with the step that
   * did it (its pointer), for {@link agentFault}: steps run in file order, and only `partition`,
   * `heal` and `killAgent` change this, so an impossible fault step is known when the file loads.
   */
  private readonly faults = new Map<string, { state: 'partitioned' | 'killed'; wasPartitioned: boolean; pointer: string }>();

  /** The line of a JSON pointer, for messages that name another step. */
  lineOf: (pointer: string) => number | undefined = () => undefined;

  /**
   * Checks a fault step on a known agent against what earlier steps did to it, and records it.
   * A problem: `partition` of an agent partitioned or killed, `heal` of one not partitioned,
   * `killAgent` of one killed. `heal` of an agent killed while partitioned is no mistake of the
   * file (the partition it ends was real) but does nothing: returned as `dead`, with the
   * killAgent step's pointer, for the summary to say so.
   */
  agentFault(pointer: string, type: 'partition' | 'heal' | 'killAgent', agentId: string): { readonly killedBy: string } | undefined {
    // An agent not known here is reported by agentId (or may be one of a refused part's): nothing to check.
    if (!this.agentGroups.has(agentId)) return undefined;
    const known = this.faults.get(agentId);
    const line = known === undefined ? undefined : this.lineOf(known.pointer);
    const by = known === undefined ? '' : ` (the ${known.state === 'killed' ? 'killAgent' : 'partition'} step ${line === undefined ? known.pointer : `at line ${line}`})`;
    switch (type) {
      case 'partition':
        if (known?.state === 'killed') this.problem(pointer, `agent "${agentId}" was killed${by}: a dead agent cannot be partitioned`);
        else if (known?.state === 'partitioned') this.problem(pointer, `agent "${agentId}" is already partitioned${by}; heal it first`);
        else this.faults.set(agentId, { state: 'partitioned', wasPartitioned: true, pointer });
        return undefined;
      case 'heal':
        if (known?.state === 'partitioned') {
          this.faults.delete(agentId);
          return undefined;
        }
        if (known?.state === 'killed' && known.wasPartitioned) {
          known.wasPartitioned = false;
          return { killedBy: known.pointer };
        }
        this.problem(pointer, `agent "${agentId}" is not partitioned at this point${known?.state === 'killed' ? ` and was killed${by}` : ''}: nothing to heal`);
        return undefined;
      case 'killAgent':
        if (known?.state === 'killed') this.problem(pointer, `agent "${agentId}" was already killed${by}`);
        else this.faults.set(agentId, { state: 'killed', wasPartitioned: known?.state === 'partitioned', pointer });
        return undefined;
    }
  }

  /**
   * @param runSpecIds absolute ids of every app and pod the file creates.
   * @param runSpecIdsComplete false when a definition's id could not be read (the schema refused
   *   it, and said so): a reference to an id not among `runSpecIds` is then not reported.
   * @param defaultRole the file's `options.defaultRole`, with which its definitions are converted.
   */
  constructor(readonly runSpecIds: readonly string[], readonly runSpecIdsComplete = true, readonly defaultRole = '*') {}

  problem(pointer: string, message: string): void {
    this.problems.push({ pointer, message });
  }

  durationMs(pointer: string, value: RawDuration): number {
    const parsed = parseDurationMs(value);
    if (parsed.ok) return parsed.ms;
    this.problem(pointer, parsed.reason);
    return 0;
  }

  optionalDurationMs(pointer: string, value: RawDuration | undefined): number | undefined {
    return value === undefined ? undefined : this.durationMs(pointer, value);
  }

  /** `[min, max]` with min ≤ max; one duration `d` is the fixed delay `[d, d]`. */
  delayRangeMs(pointer: string, value: RawDelayRange): DelayRange {
    if (!Array.isArray(value)) {
      const ms = this.durationMs(pointer, value as RawDuration);
      return [ms, ms];
    }
    const minMs = this.durationMs(childPointer(pointer, 0), value[0]);
    const maxMs = this.durationMs(childPointer(pointer, 1), value[1]);
    if (minMs > maxMs) this.problem(pointer, `expected [min, max] with min ≤ max, got [${String(value[0])}, ${String(value[1])}]`);
    return [minMs, maxMs];
  }

  /** The absolute id of a run spec reference; a problem when no app or pod of the file has it. */
  runSpecId(pointer: string, id: string): string {
    const absolute = absoluteRunSpecId(id);
    if (this.runSpecIdsComplete && !this.runSpecIds.includes(absolute)) {
      const suggestion = suggestName(absolute, this.runSpecIds);
      this.problem(pointer, `no app or pod with id "${absolute}" in this scenario`
        + `${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`} (apps and pods: ${listNames(this.runSpecIds)})`);
    }
    return absolute;
  }

  /**
   * Registers an expanded agent of the group at `pointer`. A taken id or hostname is a problem,
   * reported once per group (the first clash).
   */
  addAgent(pointer: string, agentId: string, hostname: string): void {
    const idOwner = this.agentGroups.get(agentId);
    const hostOwner = this.hostnameGroups.get(hostname);
    if (idOwner !== undefined) {
      this.clash(pointer, `duplicate agent id "${agentId}" (also in ${idOwner}); give the groups different idPrefix or start values`);
    } else if (hostOwner !== undefined) {
      this.clash(pointer, `duplicate hostname "${hostname}" (also in ${hostOwner}); give the groups different hostnamePrefix values`);
    }
    if (idOwner === undefined) this.agentGroups.set(agentId, pointer);
    if (hostOwner === undefined) this.hostnameGroups.set(hostname, pointer);
  }

  private clash(pointer: string, message: string): void {
    if (this.clashingGroups.has(pointer)) return;
    this.clashingGroups.add(pointer);
    this.problem(pointer, message);
  }

  /** An agent reference; a problem when no agent with this id exists at this point of the timeline. */
  agentId(pointer: string, id: string): string {
    if (this.agentsComplete && !this.agentGroups.has(id)) {
      const known = [...this.agentGroups.keys()];
      const suggestion = suggestName(id, known);
      this.problem(pointer, `unknown agent "${id}"${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`
        + ` (agents at this point: ${listNames(known)})`);
    }
    return id;
  }
}
