import type { AgentInfo } from '../model/agent';
import { formatAttributeValue } from './format-attribute';

const cache = new WeakMap<AgentInfo, ReadonlyMap<string, string>>();
let lastAgent: AgentInfo | undefined;
let lastValues: ReadonlyMap<string, string> = new Map();

/**
 * The agent's attributes formatted for constraint matching (see {@link formatAttributeValue}),
 * keyed by attribute name. When an agent reports the same name twice the first one counts, as in
 * Marathon (which takes the first attribute with the field's name).
 *
 * Computed once per `AgentInfo` object and cached in a WeakMap keyed by that object, so that
 * checking many launch requests against the same offer, or adding and removing instances of the
 * same agent, formats nothing again and allocates nothing after the first call. The cache relies
 * on `AgentInfo` being immutable (it is `readonly` throughout); it is only as effective as callers
 * are at reusing one `AgentInfo` object per agent (intern it per agentId where possible). Entries
 * disappear with the objects, so the cache never grows beyond the live agents.
 */
export function agentAttributeValues(agent: AgentInfo): ReadonlyMap<string, string> {
  // The matcher asks for one agent many times in a row (every constraint of every candidate of an
  // offer): the last answer is kept beside the WeakMap, which costs a hash lookup per call.
  if (agent === lastAgent) return lastValues;
  let values = cache.get(agent);
  if (values === undefined) {
    const built = new Map<string, string>();
    for (const attr of agent.attributes) {
      if (!built.has(attr.name)) built.set(attr.name, formatAttributeValue(attr));
    }
    values = built;
    cache.set(agent, values);
  }
  lastAgent = agent;
  lastValues = values;
  return values;
}
