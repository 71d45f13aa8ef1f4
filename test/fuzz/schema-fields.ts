import type { SchemaNode } from '../../src/marathon/schemas/app-schema-parts';

/** A field of a definition: where it is (keys and list positions) and the schema it must meet. */
export interface SchemaField {
  readonly path: readonly (string | number)[];
  readonly schema: SchemaNode;
}

/**
 * Every field a JSON Schema describes, found by walking it: object properties, list items (at
 * position 0), map values (under the key `k`), and the object form of `if/then/else` fields. The
 * fuzzer's catalogue of "every field of every definition", kept in step with the schemas
 * (src/marathon/schemas) by construction. `maxDepth` bounds the walk (the schemas are finite trees).
 */
export function schemaFields(schema: SchemaNode, maxDepth = 12): SchemaField[] {
  const out: SchemaField[] = [];
  walk(schema, [], out, maxDepth);
  return out;
}

function walk(schema: SchemaNode, path: readonly (string | number)[], out: SchemaField[], depth: number): void {
  if (depth === 0) return;
  const props = schema.properties as Readonly<Record<string, SchemaNode>> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) {
    out.push({ path: [...path, key], schema: sub });
    walk(sub, [...path, key], out, depth - 1);
  }
  const items = schema.items as SchemaNode | undefined;
  if (items !== undefined && typeof items === 'object') {
    out.push({ path: [...path, 0], schema: items });
    walk(items, [...path, 0], out, depth - 1);
  }
  const values = schema.additionalProperties as SchemaNode | undefined;
  if (values !== undefined && typeof values === 'object') {
    out.push({ path: [...path, 'k'], schema: values });
    walk(values, [...path, 'k'], out, depth - 1);
  }
  for (const branch of ['then', 'else'] as const) {
    const sub = schema[branch] as SchemaNode | undefined;
    if (sub !== undefined) walk(sub, path, out, depth - 1);
  }
}
