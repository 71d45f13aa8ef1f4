import t from 'tap';
import { ApiError } from '../../../src/api/errors';
import { matchesLabels, parseLabelSelectors } from '../../../src/api/v2/apps/label-selector';

const LABELS = { env: 'prod', tier: 'web', 'a.b-c_d': 'x y', weird: '!!!' };

t.test('selectors match as Marathon documents them (fact 37)', async (t) => {
  const cases: [string, boolean][] = [
    ['', true],
    ['env', true],
    ['missing', false],
    ['env==prod', true],
    ['env == prod', true],
    ['env==dev', false],
    ['env!=dev', true],
    ['missing!=dev', false],
    ['env in (dev, prod)', true],
    ['env in(dev,qa)', false],
    ['env notin (dev, qa)', true],
    ['missing notin (dev)', false],
    ['env in ()', false],
    ['env==prod, tier==web', true],
    ['env==prod,tier==db', false],
    ['a.b-c_d', true],
    ['weird==\\!\\!\\!', true],
    ['a.b-c_d==x\\ y', true],
  ];
  for (const [query, expected] of cases) t.equal(matchesLabels(parseLabelSelectors(query), LABELS), expected, query);
});

t.test('unparsable selectors throw fact 9\'s 422 with only a message', async (t) => {
  for (const query of ['env==', 'env=prod', 'env in (a', 'env in (a b)', '==x', 'env,', 'env prod', 'a!b']) {
    let thrown: unknown;
    try {
      parseLabelSelectors(query);
    } catch (err) {
      thrown = err;
    }
    t.ok(thrown instanceof ApiError, `${query}: an ApiError`);
    const err = thrown as ApiError;
    t.equal(err.statusCode, 422, query);
    t.strictSame(Object.keys(err.body), ['message'], query);
    t.ok(String(err.body.message).startsWith(`Can not parse label selector ${query}. Reason: `), query);
  }
});
