import type { SchemaNode } from '../../src/marathon/schemas/app-schema-parts';
import { MAX_ITEMS, MAX_JSON_DEPTH, MAX_KEY_LENGTH, MAX_STRING_LENGTH } from '../../src/marathon/schemas/limits';
import { MAX_ID_LENGTH } from '../../src/scheduler/groups/path-id';

/** A seeded source of choices. */
export class Draw {
  constructor(private readonly rng: () => number) {}

  /** A number in [0, n). */
  int(n: number): number {
    return Math.floor(this.rng() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.rng() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** Values of every JSON type, including the shapes a careless client sends. */
const WRONG_TYPES: readonly unknown[] = [null, true, false, 0, 1, -1, 1.5, '', 'x', '1', [], [1], ['x'], {}, { a: 1 }];

/** Numbers at and beyond every bound anyone may have forgotten. */
const EDGE_NUMBERS: readonly number[] = [
  -1, -0, 0.0001, 0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 4294967296, 2 ** 53, 2 ** 53 + 2, 1e15, 1e22, 1e300, 1e308, -1e308,
  Number.MIN_VALUE, Number.MAX_SAFE_INTEGER,
];

/** Ids Marathon would refuse, and some it would take. */
export const EDGE_IDS: readonly string[] = [
  '', '/', '//', 'a', '/a/', '/A', '/a_b', '/-a', '/a-', '/a..b', '/.a', '/a/./b', '/a/../b', '/../a', '/a/..', '/a/.',
  '/a/restart', '/a/tasks', '/versions', '/a b', '/ü', '/a\u0000b', '/%2e%2e/a', `/${'a'.repeat(MAX_ID_LENGTH)}`,
  `/${'a'.repeat(100_000)}`, '/a'.repeat(40), '../x', './x', 'x/y',
];

/** Nested arrays or objects, `depth` deep. */
export function nested(depth: number, objects: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = objects ? { a: value } : [value];
  return value;
}

/** A bad (or borderline) value for a field with `schema`: wrong types, numbers beyond its bounds, sizes beyond the limits, deep nesting. */
export function badValue(draw: Draw, schema: SchemaNode | undefined): unknown {
  const type = schema?.type;
  const types = Array.isArray(type) ? type : [type];
  const roll = draw.int(10);
  if (roll === 0) return draw.pick(WRONG_TYPES);
  // Deeper bodies (5,000 levels) are sent as raw text (fuzz-requests.ts): JSON.stringify would recurse.
  if (roll === 1) return nested(draw.pick([5, 50, MAX_JSON_DEPTH - 10, MAX_JSON_DEPTH + 5]), draw.chance(0.5));
  if (types.includes('integer') || types.includes('number')) return badNumber(draw, schema as SchemaNode);
  if (types.includes('string')) return badString(draw, schema as SchemaNode);
  if (types.includes('array')) return badArray(draw, schema as SchemaNode);
  if (types.includes('object') || schema?.additionalProperties !== undefined) return badObject(draw);
  return draw.pick([...WRONG_TYPES, ...EDGE_NUMBERS]);
}

function badNumber(draw: Draw, schema: SchemaNode): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const near = [min === undefined ? -1 : min - 1, min === undefined ? -1 : min - 0.5, max === undefined ? 1e308 : max + 1, max === undefined ? 1e22 : max * 2];
  return draw.chance(0.5) ? draw.pick(near) : draw.pick(EDGE_NUMBERS);
}

function badString(draw: Draw, schema: SchemaNode): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : MAX_STRING_LENGTH;
  const lengths = [max + 1, MAX_STRING_LENGTH + 1];
  const roll = draw.int(4);
  if (roll === 0) return 'x'.repeat(draw.pick(lengths));
  if (roll === 1) return draw.pick(EDGE_IDS);
  if (roll === 2) return draw.pick(['', ' ', 'UPPER', 'héllo', '\u0000', '💥', '${PATH}', '"quoted"', 'a\nb']);
  return draw.pick(['http', 'HTTP', 'tcp', 'COMMAND', 'udp,tcp', 'RO', 'disabled', 'unlimited', 'fixed', 'OLDEST_FIRST', 'host', 'container']);
}

function badArray(draw: Draw, schema: SchemaNode): unknown[] {
  const item = schema.items as SchemaNode | undefined;
  const roll = draw.int(4);
  if (roll === 0) return Array.from({ length: MAX_ITEMS + 1 }, () => 'x');
  if (roll === 1) return [badValue(draw, item)];
  if (roll === 2) return [draw.pick(WRONG_TYPES), draw.pick(WRONG_TYPES), draw.pick(WRONG_TYPES), draw.pick(WRONG_TYPES)];
  return [];
}

function badObject(draw: Draw): Record<string, unknown> {
  const roll = draw.int(4);
  if (roll === 0) return Object.fromEntries(Array.from({ length: MAX_ITEMS + 1 }, (_, i) => [`k${i}`, 'v']));
  if (roll === 1) return { ['k'.repeat(MAX_KEY_LENGTH + 1)]: 'v' };
  if (roll === 2) return { a: draw.pick(WRONG_TYPES), b: draw.pick(EDGE_NUMBERS) };
  return {};
}
