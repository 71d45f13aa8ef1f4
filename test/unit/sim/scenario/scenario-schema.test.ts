import t from 'tap';
import { EXPECTED_KEYWORD, scenarioSchema } from '../../../../sim/scenario/scenario-schema';

type Schema = Record<string, unknown>;

/** Every subschema with its location. */
function walk(schema: unknown, at: string, visit: (schema: Schema, at: string) => void): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, index) => walk(item, `${at}/${index}`, visit));
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  visit(schema as Schema, at);
  for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`, visit);
}

t.test('objects refuse unknown keys, except Marathon definitions (tagged unions close each variant)', async (t) => {
  const open: string[] = [];
  walk(scenarioSchema, '#', (schema, at) => {
    if (schema.type === 'object' && schema.additionalProperties === undefined && schema.discriminator === undefined) open.push(at);
  });
  t.strictSame(open, [
    '#/properties/timeline/items/properties/app', '#/properties/timeline/items/properties/pod',
    '#/properties/timeline/items/properties/deploy/properties/apps/items', '#/properties/timeline/items/properties/deploy/properties/pods/items',
  ]);
});

t.test('every anyOf/oneOf says in words what it expects (or is a tagged union)', async (t) => {
  const unexplained: string[] = [];
  walk(scenarioSchema, '#', (schema, at) => {
    if ((schema.anyOf !== undefined || schema.oneOf !== undefined) && schema[EXPECTED_KEYWORD] === undefined && schema.discriminator === undefined) {
      unexplained.push(at);
    }
  });
  t.strictSame(unexplained, []);
});
