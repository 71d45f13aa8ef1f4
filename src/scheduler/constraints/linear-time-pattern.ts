/**
 * What in a LIKE/UNLIKE pattern keeps it from running in time linear in the value it is matched
 * with: a backreference (`\1`…`\9`, `\k<name>`) or a lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`);
 * undefined when there is none. These are exactly what V8's linear-time regular expression engine
 * cannot run, the one pacer falls back to when a pattern backtracks too much
 * (src/runtime/regexp-backtracking.ts): with either, a pattern like `((a)\2*)*z` could keep the
 * core's one thread busy for hours on one attribute value, so validation refuses them (a
 * pattern without them is stopped after a bounded number of backtracks and finished in linear
 * time). Escapes and character classes are read as JavaScript reads them: `\\1` is a backslash
 * and a digit, `[\1]` a class of one character. Call on a pattern that compiles (fullMatchRegex).
 */
export function linearTimeProblem(pattern: string): 'a backreference' | 'a lookaround' | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return 'a backreference';
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '(' && LOOKAROUND.test(pattern.slice(i + 1, i + 4))) {
      return 'a lookaround';
    }
  }
  return undefined;
}

const LOOKAROUND = /^\?(?:[=!]|<[=!])/;
