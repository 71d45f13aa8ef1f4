import t from 'tap';
import { RuntimeLoop, type InputHandler } from '../../src/runtime/runtime-loop';
import type { CommandResult, SchedulerInput } from '../../src/scheduler/model/inputs';

/** A timer input whose run spec id names it, to tell inputs apart in logs. */
function named(name: string): SchedulerInput {
  return { type: 'timer', timer: { kind: 'backoffExpired', runSpecId: name } };
}

function nameOf(input: SchedulerInput): string {
  if (input.type === 'timer' && input.timer.kind === 'backoffExpired') return input.timer.runSpecId;
  if (input.type === 'resetDelay') return `cmd:${input.runSpecId}`;
  return input.type;
}

/** A command (what the API submits) named `name`. */
function command(name: string): SchedulerInput {
  return { type: 'resetDelay', runSpecId: name };
}

/**
 * A fake core that logs `start x` / `end x` around each input, tracks how deeply it is re-entered,
 * and runs `during[x]` (if any) while handling x.
 */
class RecordingCore implements InputHandler {
  readonly log: string[] = [];
  depth = 0;
  maxDepth = 0;
  readonly during: Record<string, () => void> = {};
  result: CommandResult | undefined = undefined;

  handle(input: SchedulerInput): CommandResult | undefined {
    const name = nameOf(input);
    this.depth++;
    this.maxDepth = Math.max(this.maxDepth, this.depth);
    this.log.push(`start ${name}`);
    try {
      this.during[name]?.();
    } finally {
      this.log.push(`end ${name}`);
      this.depth--;
    }
    return this.result;
  }

  /** The inputs handled, in order (names of `start` lines). */
  get order(): string[] {
    return this.log.filter((l) => l.startsWith('start ')).map((l) => l.slice('start '.length));
  }
}

function attached(): { loop: RuntimeLoop; core: RecordingCore } {
  const loop = new RuntimeLoop();
  const core = new RecordingCore();
  loop.attach(core);
  return { loop, core };
}

t.test('inputs are handled at once when idle, in the order posted', async (t) => {
  const { loop, core } = attached();
  loop.post(named('a'));
  t.same(core.order, ['a'], 'handled synchronously by post()');
  loop.post(named('b'));
  loop.post(named('c'));
  t.same(core.order, ['a', 'b', 'c']);
  t.equal(loop.handled, 3);
});

t.test('inputs posted before attach wait, then are handled in order on attach', async (t) => {
  const loop = new RuntimeLoop();
  loop.post(named('a'));
  loop.post(named('b'));
  t.equal(loop.handled, 0, 'nothing without a core');
  const core = new RecordingCore();
  loop.attach(core);
  t.same(core.order, ['a', 'b']);
  t.equal(loop.handled, 2);
});

t.test('no re-entrancy: an input posted while one is handled is handled after it, in order', async (t) => {
  const { loop, core } = attached();
  core.during.a = () => {
    loop.post(named('b'));
    loop.post(named('c'));
    t.same(core.order, ['a'], 'not handled inside a');
  };
  core.during.b = () => loop.post(named('d'));
  loop.post(named('a'));
  t.same(core.log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d']);
  t.equal(core.maxDepth, 1, 'the core was never re-entered');
});

t.test('submit returns the command\'s result; a command without one is ok', async (t) => {
  const { loop, core } = attached();
  t.same(loop.submit(command('x')), { ok: true }, 'undefined from the core reads as ok');
  const refused: CommandResult = { ok: false, error: 'unknown-run-spec', message: 'App \'/x\' does not exist' };
  core.result = refused;
  t.equal(loop.submit(command('x')), refused, 'the core\'s result as it is');
  core.result = { ok: true, deploymentId: 'd1', version: 'v1' };
  t.same(loop.submit(command('y')), { ok: true, deploymentId: 'd1', version: 'v1' });
  t.same(core.order, ['cmd:x', 'cmd:x', 'cmd:y']);
  t.equal(loop.handled, 3);
});

t.test('submit before attach throws: the scheduler is not started', async (t) => {
  const loop = new RuntimeLoop();
  t.throws(() => loop.submit(command('x')), { message: 'the scheduler is not started yet' });
});

t.test('inputs posted while a command is handled are handled after it, before submit returns', async (t) => {
  const { loop, core } = attached();
  core.during['cmd:x'] = () => loop.post(named('status'));
  loop.submit(command('x'));
  t.same(core.log, ['start cmd:x', 'end cmd:x', 'start status', 'end status']);
  t.equal(core.maxDepth, 1);
});

t.test('a re-entrant submit throws and leaves the loop usable', async (t) => {
  const { loop, core } = attached();
  let thrown: unknown;
  core.during.a = () => {
    try {
      loop.submit(command('inner'));
    } catch (err) {
      thrown = err;
    }
  };
  loop.post(named('a'));
  t.match(thrown, { message: /re-entrant/ }, 'submit from inside a post is refused');
  t.notOk(core.order.includes('cmd:inner'), 'the inner command was not handled');
  thrown = undefined;
  core.during['cmd:outer'] = () => {
    try {
      loop.submit(command('inner'));
    } catch (err) {
      thrown = err;
    }
  };
  loop.submit(command('outer'));
  t.match(thrown, { message: /re-entrant/ }, 'submit from inside a submit is refused');
  t.same(loop.submit(command('later')), { ok: true }, 'the loop still works');
  t.equal(core.maxDepth, 1);
});

t.test('a core that throws: the error reaches the caller and the loop is not stuck busy', async (t) => {
  const { loop, core } = attached();
  core.during.boom = () => {
    loop.post(named('queued-behind-boom'));
    throw new Error('boom');
  };
  t.throws(() => loop.post(named('boom')), { message: 'boom' });
  loop.post(named('next'));
  t.same(core.order, ['boom', 'queued-behind-boom', 'next'], 'what was queued behind the failure runs first, then the new input');
  core.during['cmd:bad'] = () => {
    throw new Error('bad command');
  };
  t.throws(() => loop.submit(command('bad')), { message: 'bad command' });
  t.same(loop.submit(command('good')), { ok: true }, 'submit works after a failed one');
});
