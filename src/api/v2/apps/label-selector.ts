import { illegalArgument } from '../../errors';

/** One parsed selector: the label must exist and its value pass `test`. */
export interface LabelSelector {
  readonly key: string;
  readonly test: (value: string) => boolean;
}

/** A term: letters, digits, `-`, `_`, `.`; any other character escaped with a backslash. */
const TERM = /(?:\\.|[-A-Za-z0-9_.])+/y;
const SET_OP = /(?:notin|in)/y;
const EQUALITY_OP = /(?:==|!=)/y;

/**
 * Parses Marathon's label selector query (`GET /v2/apps?label=…`, fact 37):
 * `selector {, selector}` where a selector is `key` (exists), `key==value`, `key!=value`,
 * `key in (v1, v2)` or `key notin (v1, v2)`; whitespace between tokens is ignored. Every selector
 * requires the label to exist (`!=` and `notin` too). An unparsable query is fact 9's 422
 * `Can not parse label selector <query>. Reason: …`.
 */
export function parseLabelSelectors(query: string): LabelSelector[] {
  const cursor = new Cursor(query);
  const selectors: LabelSelector[] = [];
  if (cursor.atEnd()) return selectors;
  for (;;) {
    selectors.push(selectorAt(cursor));
    if (cursor.literal(',')) continue;
    if (cursor.atEnd()) return selectors;
    throw cursor.fail("',' or end of input expected");
  }
}

/** True when every selector accepts `labels`. */
export function matchesLabels(selectors: readonly LabelSelector[], labels: Readonly<Record<string, string>>): boolean {
  return selectors.every((s) => Object.hasOwn(labels, s.key) && s.test(labels[s.key]));
}

function selectorAt(cursor: Cursor): LabelSelector {
  const key = cursor.term();
  if (key === undefined) throw cursor.fail('label expected');
  const beforeOp = cursor.pos;
  const setOp = cursor.match(SET_OP);
  if (setOp !== undefined && cursor.literal('(')) {
    const values = setAt(cursor);
    return setOp === 'in' ? { key, test: (v) => values.includes(v) } : { key, test: (v) => !values.includes(v) };
  }
  cursor.pos = beforeOp;
  const eqOp = cursor.match(EQUALITY_OP);
  if (eqOp === undefined) return { key, test: () => true };
  const value = cursor.term();
  if (value === undefined) throw cursor.fail('value expected');
  return eqOp === '==' ? { key, test: (v) => v === value } : { key, test: (v) => v !== value };
}

function setAt(cursor: Cursor): string[] {
  const values: string[] = [];
  if (cursor.literal(')')) return values;
  for (;;) {
    const value = cursor.term();
    if (value === undefined) throw cursor.fail('value expected');
    values.push(value);
    if (cursor.literal(')')) return values;
    if (!cursor.literal(',')) throw cursor.fail("',' or ')' expected");
  }
}

/** A position in the query; every read skips the whitespace before the token. */
class Cursor {
  pos = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }

  literal(token: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }

  match(re: RegExp): string | undefined {
    this.skipSpace();
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m === null) return undefined;
    this.pos += m[0].length;
    return m[0];
  }

  term(): string | undefined {
    return this.match(TERM)?.replace(/\\(.)/g, '$1');
  }

  fail(expected: string): Error {
    const found = this.pos < this.text.length ? `'${this.text[this.pos]}' found` : 'end of input found';
    return illegalArgument(`Can not parse label selector ${this.text}. Reason: ${expected} but ${found}`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
}
