import { isAlias, isMap, isSeq, type Document, type LineCounter, type Node } from 'yaml';

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The 1-based line in the YAML source of the node a JSON pointer names, or of its nearest existing
 * ancestor (a missing field points at the mapping that lacks it). Undefined for an empty document.
 */
export function lineOfPointer(document: Document, lineCounter: LineCounter, pointer: string): number | undefined {
  let node: unknown = document.contents;
  let line = lineOf(node, lineCounter);
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
  for (const segment of segments) {
    if (isAlias(node)) node = node.resolve(document);
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => String((item.key as { value?: unknown } | null)?.value ?? item.key) === segment);
      if (pair === undefined) break;
      next = pair.value ?? pair.key;
      if (lineOf(next, lineCounter) === undefined) next = pair.key;
    } else if (isSeq(node)) {
      next = node.items[Number(segment)];
    }
    const nextLine = lineOf(next, lineCounter);
    if (nextLine === undefined) break;
    node = next;
    line = nextLine;
  }
  return line;
}

function lineOf(node: unknown, lineCounter: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? lineCounter.linePos(range[0]).line : undefined;
}
