import t from 'tap';
import { BlockedLog } from '../../../src/api/auth/blocked-log';

// The warn lines of addresses reaching the failed-login limit are bounded across addresses: a
// flood of failed Bearer tokens from many IPv6 /64s must not write a line per /64.

function kit(maxNamed: number): { log: BlockedLog; lines: string[]; at: (ms: number) => void } {
  let nowMs = 0;
  const lines: string[] = [];
  const log = new BlockedLog({ failures: 10, windowMs: 60_000, nowMs: () => nowMs, warn: (l) => lines.push(l), maxNamed });
  return { log, lines, at: (ms) => { nowMs = ms; } };
}

interface Case {
  readonly name: string;
  /** [time ms, address] of each address reaching the limit, in order. */
  readonly blocks: readonly (readonly [number, string])[];
  readonly lines: readonly (string | RegExp)[];
}

const named = (a: string, leftS = 60): string => `client address ${a} reached 10 failed logins within 60 s: its requests with credentials are answered 429 for the next ${leftS} s`;
const cases: readonly Case[] = [
  { name: 'within the cap every address is named', blocks: [[0, 'a'], [1_000, 'b']], lines: [named('a'), named('b')] },
  {
    name: 'beyond the cap one line says so, then nothing until the window ends',
    blocks: [[0, 'a'], [1_000, 'b'], [2_000, 'c'], [3_000, 'd'], [59_999, 'e']],
    lines: [named('a'), named('b'), /^2 client addresses reached 10 failed logins within 60 s: further ones are refused as well but not named for the next 58 s; their number follows$/],
  },
  {
    name: 'the next window names again, after the count of the ones not named',
    blocks: [[0, 'a'], [1_000, 'b'], [2_000, 'c'], [3_000, 'd'], [60_000, 'e']],
    lines: [named('a'), named('b'), /not named/, '2 more client addresses reached 10 failed logins in the previous 60 s window, not named', named('e')],
  },
  { name: 'a window without overflow reports no count', blocks: [[0, 'a'], [70_000, 'b']], lines: [named('a'), named('b')] },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const k = kit(2);
    for (const [ms, address] of c.blocks) {
      k.at(ms);
      k.log.blocked(address, 60_000);
    }
    t.equal(k.lines.length, c.lines.length, k.lines.join('\n'));
    c.lines.forEach((want, i) => (typeof want === 'string' ? t.equal(k.lines[i], want) : t.match(k.lines[i], want)));
  });
}

t.test('100,000 /64s reaching the limit within one window write 21 lines at the default cap', async (t) => {
  let nowMs = 0;
  const lines: string[] = [];
  const log = new BlockedLog({ failures: 10, windowMs: 60_000, nowMs: () => nowMs, warn: (l) => lines.push(l) });
  for (let i = 0; i < 100_000; i++) {
    nowMs = i / 10;
    log.blocked(`2001:db8:${i.toString(16)}::/64`, 60_000);
  }
  t.equal(lines.length, 21);
  nowMs = 60_000;
  log.blocked('192.0.2.1', 60_000);
  t.equal(lines[21], '99980 more client addresses reached 10 failed logins in the previous 60 s window, not named');
});
