import { appendFileSync, readFileSync } from 'node:fs';
import t from 'tap';

/**
 * Runs several compiled test files in this one process, for test/runner/run-suite.ts: each file's
 * top-level tests become the subtests of one test named after the file (`ok N - test/unit/x.test.ts`
 * in this process's TAP), run one file after the other in the order given.
 *
 * Why: a test process costs about 0.5 s of CPU before its first test runs (node, tap, the
 * coverage of both), more than most of the core's unit tests take; the suite's ~100 files under
 * test/unit/ paid it each (and the ~70 of test/api/ about 1.3 s: fastify and all of src/). Only
 * files that call nothing of the root test at their top level but `t.test` and `t.teardown` (run
 * when the file's test ends), and leave nothing behind that another file could see (globals,
 * environment, fixed ports, shared files), may be batched: a file calling anything else of the
 * root test fails its batch, naming itself.
 *
 * Each file has the time a file alone has (PACER_TEST_TIMEOUT_S, set by the runner: tap's timeout
 * of its test, as TAP_TIMEOUT is of a file alone), so a batch ends no sooner than its files would.
 *
 * Arguments: pairs of the file's repository-relative name and its compiled path. With
 * PACER_TEST_COSTS set (a file name; test/runner/run-suite.ts), each file's CPU is appended to that
 * file as one JSON line: its loading and its tests, this process's and its waited-for children's.
 */

type TestArgs = unknown[];
type AnyTest = (...args: TestArgs) => Promise<unknown>;

const root = t as unknown as Record<string, unknown>;
const rootTest = t.test.bind(t);
const args = process.argv.slice(2);
const fileTimeoutS = Number(process.env.PACER_TEST_TIMEOUT_S);
/** A file's test options: a new object each time (tap deletes `timeout` from a test's options when it ends). */
const fileOptions = (): { timeout?: number } => (Number.isFinite(fileTimeoutS) && fileTimeoutS > 0 ? { timeout: fileTimeoutS * 1000 } : {});

/**
 * Replaces `key` of the root test with `value` until the returned function is called (tap's
 * methods are getters: defined over, then the original descriptor, or none, is put back).
 */
function shadow(key: string, value: unknown): () => void {
  const own = Object.getOwnPropertyDescriptor(t, key);
  Object.defineProperty(t, key, { value, configurable: true, writable: true });
  return () => {
    if (own === undefined) delete root[key];
    else Object.defineProperty(t, key, own);
  };
}

const costsFile = process.env.PACER_TEST_COSTS;
/** This process's CPU seconds plus those of the children it waited for (/proc on Linux; its own only elsewhere). */
function cpuS(): number {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    // Fields 16 and 17 of /proc/self/stat (after the parenthesised command name): cutime, cstime in clock ticks (100 a second).
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // not Linux: this process's CPU only
  }
  return (user + system) / 1e6 + children;
}

const OTHERS = ['before', 'after', 'beforeEach', 'afterEach', 'plan', 'end', 'comment', 'pass', 'fail', 'ok', 'equal', 'same'] as const;

for (let i = 0; i + 1 < args.length; i += 2) {
  const name = args[i] as string;
  const compiled = args[i + 1] as string;
  const queued: TestArgs[] = [];
  const teardowns: (() => unknown)[] = [];
  const misuse: string[] = [];
  const restore = [
    shadow('test', (...testArgs: TestArgs): Promise<unknown> => {
      queued.push(testArgs);
      return Promise.resolve(undefined);
    }),
    // A file's own clean-up (e.g. of a temp dir made at load time): run when the file's test ends, as alone when the process's root test does.
    shadow('teardown', (fn: () => unknown): void => void teardowns.push(fn)),
    ...OTHERS.map((k) => shadow(k, (): void => void misuse.push(`t.${k}`))),
  ];
  let loadError: unknown;
  const loadStartS = costsFile === undefined ? 0 : cpuS();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the files are named at run time
    require(compiled);
  } catch (err) {
    loadError = err;
  } finally {
    for (const undo of restore) undo();
  }
  const loadS = costsFile === undefined ? 0 : cpuS() - loadStartS;
  void rootTest(name, fileOptions(), async (ft) => {
    if (costsFile !== undefined) {
      const startS = cpuS();
      const startMs = Date.now();
      // Registered first, so run last: after the file's own teardowns (tap runs a test's teardowns last-registered first).
      ft.teardown(() => appendFileSync(costsFile, `${JSON.stringify({ file: name, in: 'batch', ms: Date.now() - startMs, cpuS: +(loadS + cpuS() - startS).toFixed(2) })}\n`));
    }
    for (const fn of teardowns) ft.teardown(fn);
    if (loadError !== undefined) throw loadError;
    if (misuse.length > 0) ft.fail(`${name} calls ${misuse.join(', ')} on the root test at its top level: it cannot be batched (test/runner/run-suite.ts batched())`);
    for (const testArgs of queued) await (ft.test as unknown as AnyTest).apply(ft, testArgs);
  });
}
