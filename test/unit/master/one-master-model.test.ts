import { ESLint } from 'eslint';
import t from 'tap';
import { repoPath } from '../../harness/repo-path';

/*
 * One master model (issue 12, problem 4): the simulator, the local cluster and the wire fake Mesos
 * master of the tests may not keep an allocator, ledger, ACCEPT check or reconciler of their own
 * (eslint.config.mjs, `oneMasterModel`). This proves the lint rules fire where they must and only
 * there, by linting small sources as if they were files of each place.
 */

const ownDesk = 'export class OfferDesk {}\n';
const ownLedger = 'export class AgentLedger {}\n';
const ownRanges = 'export function subtractRanges(): number[] { return []; }\n';
const internals = "import { OfferDesk } from '../../src/master/offer-desk';\nexport const d = OfferDesk;\n";
const internalsFromLocal = "import { AcceptCheck } from '../../master/accept-check';\nexport const c = AcceptCheck;\n";
const facade = "import { Master } from '../../src/master/master';\nexport const m = Master;\n";

const cases: { name: string; file: string; code: string; rules: string[] }[] = [
  { name: 'the simulator declares an offer desk', file: 'sim/cluster/x.ts', code: ownDesk, rules: ['no-restricted-syntax'] },
  { name: 'the simulator declares a ledger', file: 'sim/cluster/x.ts', code: ownLedger, rules: ['no-restricted-syntax'] },
  { name: 'the local cluster declares port range algebra', file: 'src/cluster/local/x.ts', code: ownRanges, rules: ['no-restricted-syntax'] },
  { name: 'the local cluster assembles a master from its parts', file: 'src/cluster/local/x.ts', code: internalsFromLocal, rules: ['no-restricted-imports'] },
  { name: 'the simulator assembles a master from its parts', file: 'sim/cluster/x.ts', code: internals, rules: ['no-restricted-imports'] },
  { name: 'the fake master declares a ledger', file: 'test/cluster/mesos/fake-master/x.ts', code: ownLedger, rules: ['no-restricted-syntax'] },
  { name: 'the simulator uses the facade', file: 'sim/cluster/x.ts', code: facade, rules: [] },
  { name: 'the master model itself declares its desk', file: 'src/master/x.ts', code: ownDesk, rules: [] },
  { name: 'the framework side (Mesos driver) keeps its own offer ledger', file: 'src/cluster/mesos/x.ts', code: ownLedger, rules: [] },
];

t.test('sim/, src/cluster/local and the fake master may not keep master rules of their own', async (t) => {
  const eslint = new ESLint({ cwd: repoPath('.') });
  for (const c of cases) {
    const [result] = await eslint.lintText(c.code, { filePath: repoPath(c.file) });
    t.same(result.messages.map((m) => m.ruleId), c.rules, c.name);
  }
});
