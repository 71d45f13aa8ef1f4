// ESLint rule `pacer/instance-writes` (issue 12, problem 3): the instance tracker
// (src/scheduler/instances/instance-tracker.ts) is the one owner of instance mutation. Anywhere
// else the rule refuses a write to a field of an Instance or of its Tasks — an assignment
// (`=`, `+=`, `??=`, …), `++`/`--` or `delete` of a member with one of those names — and any
// use of the tracker's dirty set (`.dirty`), which only the tracker fills and writes.
//
// ESLint here has no type information, so the rule goes by field name: it applies where the only
// objects with these names are instances (the core, the store, the runtime and HA; see
// eslint.config.mjs), not to renderers, drivers or the simulator, whose own JSON and state
// objects share names like `state` and `role`. `this.x = …` is never an instance write.
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

const fields = new Set(INSTANCE_FIELDS);
const OWNER = 'src/scheduler/instances/instance-tracker.ts';

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
      context.report({ node, messageId: 'write', data: { owner: OWNER, field: target.property.name } });
    };
    return {
      AssignmentExpression: (node) => check(node, node.left),
      UpdateExpression: (node) => check(node, node.argument),
      'UnaryExpression[operator="delete"]': (node) => check(node, node.argument),
      'MemberExpression[computed=false][property.name="dirty"]': (node) => {
        if (node.object.type !== 'ThisExpression') context.report({ node, messageId: 'dirty', data: { owner: OWNER } });
      },
    };
  },
};
