import { isAlias, isMap, isScalar, isSeq, Parser, type CST, type Document, type Node } from 'yaml';
import { MAX_ITEMS, MAX_KEY_LENGTH, MAX_STRING_LENGTH } from '../../src/marathon/schemas/limits';
import { childPointer, type Problem } from './problem';
import { SCENARIO_ALIASES_MAX, SCENARIO_DEPTH_MAX, SCENARIO_NODES_MAX, SCENARIO_STEPS_MAX } from './scenario-limits';

/**
 * The offset of the first list or map nested deeper than {@link SCENARIO_DEPTH_MAX} in a YAML
 * text, or undefined. Walks the syntax tree of yaml's own parser (which keeps a stack, not the
 * call stack) without recursion, so it runs before the composer, whose recursion overflowed the
 * stack at a few hundred levels ("Maximum call stack size exceeded").
 */
export function deepNestingOffset(text: string): number | undefined {
  const pending: { token: CST.Token | undefined; depth: number }[] = [];
  for (const token of new Parser().parse(text)) pending.push({ token, depth: 0 });
  while (pending.length > 0) {
    const { token, depth } = pending.pop() as { token: CST.Token | undefined; depth: number };
    if (token === undefined) continue;
    if (token.type === 'document') {
      pending.push({ token: token.value, depth });
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > SCENARIO_DEPTH_MAX) return token.type === 'flow-collection' ? token.start.offset : token.offset;
      for (const item of token.items) {
        if ('key' in item) pending.push({ token: item.key ?? undefined, depth: depth + 1 });
        pending.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * The bounds of a composed scenario document that its schema does not say, checked on the YAML
 * nodes before they become data (docs/limits.md, "Scenario files"): strings up to
 * MAX_STRING_LENGTH, keys up to MAX_KEY_LENGTH, lists and maps of up to MAX_ITEMS entries (the timeline up to
 * {@link SCENARIO_STEPS_MAX}), at most {@link SCENARIO_ALIASES_MAX} aliases and at most
 * {@link SCENARIO_NODES_MAX} nodes with aliases expanded.
 * Iterative: the depth is bounded already, but the walk needs no stack either way.
 */
export function documentBoundProblems(document: Document): Problem[] {
  const problems: Problem[] = [];
  const expanded = new Map<Node, number>();
  // The node each anchor names so far, in document order: an alias refers to the latest anchor of
  // its name before it. (`Alias.resolve` searches the whole document at every call: 20,000 aliases
  // took 74 s, 100,000 of them in a 300 KB file ran for more than ten minutes.)
  const anchored = new Map<string, Node>();
  let aliases = 0;
  /** Post-order: a node is visited again (`done`) once its children are counted. */
  const pending: { node: unknown; pointer: string; done: boolean }[] = [{ node: document.contents, pointer: '', done: false }];
  while (pending.length > 0 && problems.length === 0) {
    const entry = pending.pop() as { node: unknown; pointer: string; done: boolean };
    const { node, pointer } = entry;
    if (!entry.done && (isScalar(node) || isMap(node) || isSeq(node)) && node.anchor !== undefined) anchored.set(node.anchor, node);
    if (isScalar(node)) {
      if (typeof node.value === 'string' && node.value.length > MAX_STRING_LENGTH) {
        problems.push({ pointer, message: `expected at most ${MAX_STRING_LENGTH} characters, got ${node.value.length}` });
      }
      expanded.set(node, 1);
    } else if (isAlias(node)) {
      if (++aliases > SCENARIO_ALIASES_MAX) {
        problems.push({ pointer, message: `expected at most ${SCENARIO_ALIASES_MAX} YAML aliases (*name) in a file, this is one more` });
        break;
      }
      const source = anchored.get(node.source);
      expanded.set(node, source === undefined ? 1 : expanded.get(source) ?? 1);
    } else if (isMap(node) || isSeq(node)) {
      if (entry.done) {
        let size = 1;
        for (const item of node.items) {
          const value = isMap(node) ? (item as { value: unknown }).value : item;
          size += 1 + (expanded.get(value as Node) ?? 0);
        }
        expanded.set(node, size);
        continue;
      }
      const itemsMax = pointer === '/timeline' ? SCENARIO_STEPS_MAX : MAX_ITEMS;
      if (node.items.length > itemsMax) {
        problems.push({ pointer, message: isSeq(node) ? `expected a list of at most ${itemsMax} items, got a list of ${node.items.length} items` : `expected at most ${itemsMax} entries, got ${node.items.length}` });
        break;
      }
      pending.push({ node, pointer, done: true });
      // Pushed last to first, so popped in document order: an anchor is counted before its aliases.
      [...node.items.entries()].reverse().forEach(([index, item]) => {
        if (isSeq(node)) {
          pending.push({ node: item, pointer: childPointer(pointer, index), done: false });
          return;
        }
        const pair = item as { key: unknown; value: unknown };
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const at = childPointer(pointer, key);
        // A key too long at its map's pointer (a pointer with the key would be as long); `__proto__` is protoKeys'.
        if (key.length > MAX_KEY_LENGTH) problems.push({ pointer, message: `expected keys of at most ${MAX_KEY_LENGTH} characters, got one of ${key.length}` });
        pending.push({ node: pair.value, pointer: at, done: false });
      });
    }
  }
  const total = expanded.get(document.contents as Node) ?? 0;
  if (problems.length === 0 && total > SCENARIO_NODES_MAX) {
    problems.push({ pointer: '', message: `expected at most ${SCENARIO_NODES_MAX} values with the YAML aliases expanded, got ${total}` });
  }
  return problems;
}

/** A `__proto__` key of a document ({@link protoKeys}): its problem, and how to take it out. */
export interface ProtoKey {
  readonly problem: Problem;
  /** Removes the key and its value from their map, so that the rest of the document can be checked. */
  readonly remove: () => void;
}

/**
 * Every `__proto__` key of a document (which a plain object takes for its prototype, or drops):
 * each is a problem at its own pointer (so at its own line). The caller words them, then removes
 * them, and checks the rest of the document as if they were not there. Walks the nodes as
 * written (an alias's target is walked where it stands); iterative, as the bounds' walk.
 */
export function protoKeys(document: Document): ProtoKey[] {
  const found: ProtoKey[] = [];
  const pending: { node: unknown; pointer: string }[] = [{ node: document.contents, pointer: '' }];
  while (pending.length > 0) {
    const { node, pointer } = pending.pop() as { node: unknown; pointer: string };
    if (isSeq(node)) {
      node.items.forEach((item, index) => pending.push({ node: item, pointer: childPointer(pointer, index) }));
    } else if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const at = childPointer(pointer, key);
        if (key === '__proto__') {
          found.push({ problem: { pointer: at, message: 'the key "__proto__" is not allowed' }, remove: () => void node.items.splice(node.items.indexOf(pair), 1) });
        } else {
          pending.push({ node: pair.value, pointer: at });
        }
      }
    }
  }
  return found.sort((a, b) => (a.problem.pointer < b.problem.pointer ? -1 : a.problem.pointer > b.problem.pointer ? 1 : 0));
}
