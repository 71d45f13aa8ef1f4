import { ESLint } from 'eslint';
import t from 'tap';
import { repoPath } from '../../harness/repo-path';

/*
 * Only the core edits the root group (issue 12 R2): src/api may not import the tree edits, the
 * version stamping or the run-spec rewrites (eslint.config.mjs, `apiRootEditBans`). This proves
 * the rule fires where it must and only there, by linting small sources as files of each place.
 */

const RULE = '@typescript-eslint/no-restricted-imports';
const fromApi = (module: string, names: string): string =>
  `import { ${names} } from '../../../scheduler/${module}';\nexport const x = [${names}];\n`;

const cases: { name: string; file: string; code: string; rules: string[] }[] = [
  { name: 'a route puts a run spec into a root', file: 'src/api/v2/apps/x.ts', code: fromApi('groups/with-run-spec', 'withRunSpec'), rules: [RULE] },
  { name: 'a route edits a group', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/update-group', 'updateGroup'), rules: [RULE] },
  { name: 'a route goes through the re-exports', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/root-group', 'removeGroup'), rules: [RULE] },
  { name: 'a route scales a group', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/scale-group', 'scaleGroup'), rules: [RULE] },
  { name: 'a route stamps versions', file: 'src/api/v2/apps/x.ts', code: fromApi('groups/versioning', 'stampVersions'), rules: [RULE] },
  { name: 'a route picks the next root version', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/version-after', 'versionAfter'), rules: [RULE] },
  { name: 'a route rescales a run spec', file: 'src/api/v2/apps/x.ts', code: fromApi('groups/versioning', 'withInstances'), rules: [RULE] },
  { name: 'a route builds a group update (a type)', file: 'src/api/v2/groups/x.ts',
    code: "import type { GroupUpdate } from '../../../scheduler/groups/group-update';\nexport type X = GroupUpdate;\n", rules: [] },
  { name: 'a route edits the root through the core surface', file: 'src/api/v2/apps/x.ts', code: fromApi('index', 'withRunSpec'), rules: [RULE] },
  { name: 'a route reads the tree through the core surface', file: 'src/api/v2/apps/x.ts', code: fromApi('index', 'findRunSpec'), rules: [] },
  { name: 'a route reads the tree', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/tree-query', 'findGroup'), rules: [] },
  { name: 'a route asks the role rules', file: 'src/api/v2/groups/x.ts', code: fromApi('groups/role-rules', 'roleContextOf'), rules: [] },
  { name: 'the core edits the root', file: 'src/scheduler/commands/x.ts',
    code: "import { withRunSpec } from '../groups/with-run-spec';\nexport const x = withRunSpec;\n", rules: [] },
];

t.test('src/api may not import the root group edits (only the core edits the root)', async (t) => {
  const eslint = new ESLint({ cwd: repoPath('.') });
  for (const c of cases) {
    const [result] = await eslint.lintText(c.code, { filePath: repoPath(c.file) });
    t.same(result.messages.map((m) => m.ruleId), c.rules, c.name);
  }
});
