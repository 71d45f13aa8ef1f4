import t from 'tap';
import { negotiate } from '../../../src/api/v2/system/negotiate';

t.test('negotiate: server preference order on ties, quality and specificity otherwise', async (t) => {
  const offered = ['text/plain', 'application/json', 'text/html'];
  const cases: [string | undefined, string | undefined][] = [
    [undefined, 'text/plain'],
    ['', 'text/plain'],
    ['*/*', 'text/plain'],
    ['application/json', 'application/json'],
    ['APPLICATION/JSON', 'application/json'],
    ['text/html', 'text/html'],
    ['text/*', 'text/plain'],
    ['text/*;q=0.5, application/json', 'application/json'],
    ['text/html, */*;q=0.1', 'text/html'],
    ['*/*, text/plain;q=0', 'application/json'],
    ['image/png', undefined],
    ['nonsense', undefined],
    ['application/json;q=abc', 'application/json'],
  ];
  for (const [accept, expected] of cases) t.equal(negotiate(accept, offered), expected, accept ?? '(none)');
});
