// ESLint rule `pacer/instance-writes` (issue 12, problem 3): the instance tracker
// (src/scheduler/instances/instance-tracker.ts) is the one owner of instance mutation. Anywhere
// else the rule refuses a write to a field of an Instance or of its Tasks — an assignment
// (`=`, `+=`, `??=`, …), `++`/`--` or `delete` of a member with one of those names — and any
// use of the tracker's dirty set (`.dirty`), which only the tracker fills and writes.
//
// ESLint here has no type information (type-aware linting of src, sim and bench doubled the lint's
// CPU time), so the rule goes by field name, everywhere in src/, sim/ and bench/ (eslint.config.mjs)
// but the drivers and the master model, which never receive instances and keep task records of
// their own with Mesos's field names. A call of an Instance's writing methods, `launchApp`,
// `launchAppAt` and `keepTasks`, is a write as well. Two kinds of writes are not instance writes whatever their
// names: `this.x = …`, and writes to a variable the code built itself from an object literal (a
// renderer's JSON, a translated status; see builtHere).
// test/unit/lint/instance-writes.test.ts proves where it fires.

/** The writable fields of `Instance` and `Task` (src/scheduler/model/instance.ts). */
export const INSTANCE_FIELDS = [
  // Instance
  'runSpecVersion', 'configVersion', 'incarnation', 'goal', 'condition', 'conditionSinceMs', 'role', 'agent',
  'allocation', 'reservation', 'tasks', 'healthy', 'ready', 'startedAtMs', 'unreachableSinceMs', 'killReason',
  'killRequestedAtMs',
  // Task
  'state', 'lastStatusMs', 'message',
];

/** The methods of `Instance` that write its fields (src/scheduler/model/instance.ts). */
export const INSTANCE_WRITERS = ['launchApp', 'launchAppAt', 'keepTasks'];

const fields = new Set(INSTANCE_FIELDS);
const writers = new Set(INSTANCE_WRITERS);
const OWNER = 'src/scheduler/instances/instance-tracker.ts';

/**
 * Whether `object` is a variable this code built itself from an object literal (`const json:
 * Record<string, unknown> = {…}`; `const status: {…} = {…}`) and did not declare as an Instance or a
 * Task: a renderer's JSON, a translated status, a record being filled field by field. Instances
 * are never built that way and then written outside the tracker, so such writes are not instance
 * writes whatever their field names.
 */
function builtHere(context, node, object) {
  if (object.type !== 'Identifier') return false;
  for (let scope = context.sourceCode.getScope(node); scope !== null; scope = scope.upper) {
    const variable = scope.set.get(object.name);
    if (variable === undefined) continue;
    const def = variable.defs[0]?.node;
    if (def?.type !== 'VariableDeclarator' || def.init?.type !== 'ObjectExpression') return false;
    const annotation = def.id.typeAnnotation;
    if (annotation === undefined) return true;
    const text = context.sourceCode.getText(annotation);
    return !/\b(Instance|Task)\b/.test(text);
  }
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Only the instance tracker writes instance fields (issue 12, problem 3).' },
    schema: [],
    messages: {
      write: 'Only the instance tracker writes instance fields: use an operation of {{owner}} (`{{field}}`).',
      dirty: 'The dirty set is the instance tracker\'s: use markChanged or flushInstances of {{owner}}.',
    },
  },
  create(context) {
    const check = (node, target) => {
      if (target?.type !== 'MemberExpression' || target.computed || target.object.type === 'ThisExpression') return;
      if (target.property.type !== 'Identifier' || !fields.has(target.property.name)) return;
      if (builtHere(context, node, target.object)) return;
      context.report({ node, messageId: 'write', data: { owner: OWNER, field: target.property.name } });
    };
    return {
      AssignmentExpression: (node) => check(node, node.left),
      UpdateExpression: (node) => check(node, node.argument),
      'UnaryExpression[operator="delete"]': (node) => check(node, node.argument),
      CallExpression: (node) => {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.object.type === 'ThisExpression') return;
        if (callee.property.type !== 'Identifier' || !writers.has(callee.property.name)) return;
        context.report({ node, messageId: 'write', data: { owner: OWNER, field: callee.property.name } });
      },
      'MemberExpression[computed=false][property.name="dirty"]': (node) => {
        if (node.object.type !== 'ThisExpression') context.report({ node, messageId: 'dirty', data: { owner: OWNER } });
      },
    };
  },
};
