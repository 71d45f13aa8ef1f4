import type { AgentAttribute } from '../../scheduler/model/agent';
import type { PortRange } from '../../scheduler/model/resources';

/** Marathon's RAML `NumberRange`. */
export interface NumberRangeJson {
  readonly begin: number;
  readonly end: number;
}

/** Marathon's RAML `AgentAttribute`: the name and exactly one of the value fields. */
export type AgentAttributeJson =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly scalar: number }
  | { readonly name: string; readonly ranges: readonly NumberRangeJson[] }
  | { readonly name: string; readonly set: readonly string[] };

/**
 * An agent's attributes as Marathon writes them (RAML `offer.AgentAttribute`,
 * docs/docs/rest-api/public/api/v2/types/offer.raml; raml/OfferConversion.scala
 * `offerAttributeWrites`): `{name, text}`, `{name, scalar}`, `{name, ranges: [{begin, end}]}` or
 * `{name, set}`, in the agent's order.
 */
export function agentAttributesJson(attributes: readonly AgentAttribute[]): AgentAttributeJson[] {
  return attributes.map((a): AgentAttributeJson => {
    switch (a.type) {
      case 'text': return { name: a.name, text: a.text };
      case 'scalar': return { name: a.name, scalar: a.scalar };
      case 'ranges': return { name: a.name, ranges: numberRangesJson(a.ranges) };
      case 'set': return { name: a.name, set: [...a.set] };
    }
  });
}

/** Inclusive ranges as Marathon's `[{begin, end}]`. */
export function numberRangesJson(ranges: readonly PortRange[]): NumberRangeJson[] {
  return ranges.map(([begin, end]) => ({ begin, end }));
}
