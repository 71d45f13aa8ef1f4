import type { AgentAttribute } from '../../scheduler/model/agent';
import type { PortRange } from '../../scheduler/model/resources';

/** Most characters of a local agent attribute's name or value (`--local_agent_attributes`). */
export const MAX_ATTRIBUTE_CHARS = 128;

/**
 * The characters of an attribute's name, of a text value and of a set's item: Mesos's attribute
 * text, the pattern Marathon's `IS` constraint accepts (marathon-reference.md).
 */
const ATTRIBUTE_TEXT = /^[a-zA-Z0-9_/.-]+$/;
const SCALAR = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const RANGE = /^(\d+)-(\d+)$/;

/**
 * A local agent's attribute from the text of a Mesos agent's `--attributes` (`NAME:VALUE`), its
 * type inferred as Mesos infers it (values.cpp `parse`): `[b-e,b-e]` ranges, `{a,b}` a set, a
 * number a scalar (`10`, `1.5`, `2e3`), anything else text. So `["level", "IS", "10"]` and the
 * scalar comparisons of Marathon's constraints see a local agent's `level:10` as they see a Mesos
 * agent's. Names, text values and set items are 1 to {@link MAX_ATTRIBUTE_CHARS} characters of
 * `a-z A-Z 0-9 _ / . -`; a value's whole text at most as long; no blanks. Returns the attribute,
 * or what is wrong with the text.
 */
export function attributeFromText(name: string, text: string): AgentAttribute | { readonly error: string } {
  if (!isAttributeText(name)) return { error: `the name ${JSON.stringify(name)}: ${TEXT_RULE}` };
  if (text.length === 0 || text.length > MAX_ATTRIBUTE_CHARS) return { error: `the value: expected 1 to ${MAX_ATTRIBUTE_CHARS} characters` };
  if (text.startsWith('[')) return rangesOf(name, text);
  if (text.startsWith('{')) return setOf(name, text);
  if (SCALAR.test(text)) {
    const scalar = Number(text);
    return Number.isFinite(scalar) ? { name, type: 'scalar', scalar } : { error: `the value ${text}: expected a finite number` };
  }
  return ATTRIBUTE_TEXT.test(text) ? { name, type: 'text', text } : { error: `the value ${JSON.stringify(text)}: ${VALUE_RULE}` };
}

/** What a name, a text value or a set's item may hold. */
export const TEXT_RULE = `expected 1 to ${MAX_ATTRIBUTE_CHARS} characters of a-z A-Z 0-9 _ / . -`;
const VALUE_RULE = `expected text (${TEXT_RULE.replace('expected ', '')}), a number, ranges [b-e,…] or a set {a,…}`;

function isAttributeText(text: string): boolean {
  return text.length <= MAX_ATTRIBUTE_CHARS && ATTRIBUTE_TEXT.test(text);
}

function rangesOf(name: string, text: string): AgentAttribute | { readonly error: string } {
  if (!text.endsWith(']')) return { error: `the value ${text}: expected ranges [b-e,…] closed by ]` };
  const ranges: PortRange[] = [];
  for (const item of text.slice(1, -1).split(',')) {
    const m = RANGE.exec(item);
    const range = m === null ? undefined : [Number(m[1]), Number(m[2])] as const;
    if (range === undefined || !Number.isSafeInteger(range[1]) || range[0] > range[1]) {
      return { error: `the value ${text}: ${JSON.stringify(item)} is no range b-e of whole numbers with b not above e` };
    }
    ranges.push(range);
  }
  return { name, type: 'ranges', ranges };
}

function setOf(name: string, text: string): AgentAttribute | { readonly error: string } {
  if (!text.endsWith('}')) return { error: `the value ${text}: expected a set {a,…} closed by }` };
  const inner = text.slice(1, -1);
  const set = inner === '' ? [] : inner.split(',');
  const bad = set.find((item) => !ATTRIBUTE_TEXT.test(item));
  if (bad !== undefined) return { error: `the value ${text}: the item ${JSON.stringify(bad)}: ${TEXT_RULE}` };
  return { name, type: 'set', set };
}
