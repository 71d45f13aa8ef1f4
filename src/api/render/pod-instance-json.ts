import type { Instance } from '../../scheduler/model/instance';
import type { UnreachablePolicy } from '../../scheduler/model/run-spec';
import { isoTime } from '../../scheduler/index';
import { agentAttributesJson } from './agent-attributes-json';

/**
 * An instance as `DELETE /v2/pods/{id}::instances…` answers it (fact 87: Marathon's Instance
 * object): `instanceId`; `state` with `condition`, `since`, `goal` and, when known,
 * `activeSince` (first seen running) and `healthy`; `agentInfo` once placed (`host`, `agentId`,
 * `region`/`zone` when known, and the agent's `attributes` as RAML `AgentAttribute`s); the
 * `runSpecVersion` it runs; and the `unreachableStrategy` of that version.
 *
 * Attributes: the RAML type (docs/…/types/instance.raml `AgentInfo.attributes: AgentAttribute[]`)
 * and Marathon's Instance (core/instance/Instance.scala `AgentInfo(offer)`) carry them, but
 * Marathon 1.11's writer leaves them out (raml/InstanceConversion.scala passes `Seq.empty`). pacer
 * writes them (issue 15.3: clients of the RAML shape expect the agent's attributes there).
 */
export function podInstanceJson(inst: Instance, unreachable: UnreachablePolicy): Record<string, unknown> {
  const state: Record<string, unknown> = { condition: inst.condition, since: isoTime(inst.conditionSinceMs) };
  if (inst.startedAtMs !== undefined) state.activeSince = isoTime(inst.startedAtMs);
  if (inst.healthy !== undefined) state.healthy = inst.healthy;
  state.goal = inst.goal;
  const json: Record<string, unknown> = { instanceId: inst.instanceId, state };
  if (inst.agent !== undefined) {
    const agentInfo: Record<string, unknown> = { host: inst.agent.hostname, agentId: inst.agent.agentId };
    if (inst.agent.region !== undefined) agentInfo.region = inst.agent.region;
    if (inst.agent.zone !== undefined) agentInfo.zone = inst.agent.zone;
    agentInfo.attributes = agentAttributesJson(inst.agent.attributes);
    json.agentInfo = agentInfo;
  }
  json.runSpecVersion = inst.runSpecVersion;
  json.unreachableStrategy = unreachableJson(unreachable);
  return json;
}

/** `"disabled"` or `{inactiveAfterSeconds, expungeAfterSeconds}` (fact 33). */
export function unreachableJson(policy: UnreachablePolicy): 'disabled' | Record<string, number> {
  if (policy.kind === 'disabled') return 'disabled';
  return { inactiveAfterSeconds: policy.inactiveAfterMs / 1000, expungeAfterSeconds: policy.expungeAfterMs / 1000 };
}
