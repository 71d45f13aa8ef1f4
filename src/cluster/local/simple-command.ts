/** Characters a word may hold without `/bin/sh` changing it: no quoting, expansion, globbing, operator or comment. */
const PLAIN_WORD = /^[A-Za-z0-9_./:,+%@=-]+$/;

/** Longest shell text looked at (a longer one always goes through `/bin/sh -c`). */
const MAX_SIMPLE_COMMAND_CHARS = 4096;

/**
 * dash's reserved words and builtins (dash 0.5.12, Debian's `/bin/sh`): a command naming one of
 * these means what the shell makes of it, which is not what a file of that name on `PATH` would do.
 */
const SHELL_WORDS = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in',
  '.', ':', '[', 'alias', 'bg', 'break', 'cd', 'chdir', 'command', 'continue', 'echo', 'eval', 'exec',
  'exit', 'export', 'false', 'fc', 'fg', 'getopts', 'hash', 'jobs', 'kill', 'local', 'printf', 'pwd',
  'read', 'readonly', 'return', 'set', 'shift', 'test', 'times', 'trap', 'true', 'type', 'ulimit',
  'umask', 'unalias', 'unset', 'wait',
]);

/**
 * The words of a shell command that `/bin/sh -c` would run as one program with those arguments
 * unchanged (`sleep 3600`, `./server --port=8080`), or undefined when the shell would do more:
 * any quoting, `$`, globbing, tilde, redirection, pipe, list, comment or assignment, a reserved
 * word or builtin, or more than {@link MAX_SIMPLE_COMMAND_CHARS} characters.
 *
 * Why: Debian's `sh` (dash) forks such a command instead of exec'ing it, so every `cmd` task was
 * two processes, and on a slow VM a process costs ~10 ms of CPU to make (issue 13, bench:launch).
 * The launcher execs these words directly when the first one names an executable file, as bash
 * does for `bash -c 'sleep 3600'`; everything else still goes through `/bin/sh -c`.
 */
export function simpleCommand(shell: string): readonly string[] | undefined {
  if (shell.length > MAX_SIMPLE_COMMAND_CHARS) return undefined;
  const words = shell.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length === 0 || !words.every((w) => PLAIN_WORD.test(w))) return undefined;
  if (words[0].includes('=') || SHELL_WORDS.has(words[0])) return undefined;
  return words;
}
