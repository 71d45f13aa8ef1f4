import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { ApiDeps } from '../api-deps';
import { commandError } from '../command-result';
import { badRequest, illegalArgument } from '../errors';
import { queryBool, type Query } from '../query';
import type { Command } from '../../scheduler/model/inputs';
import { parseSimulate, WhatIfRefused } from '../../whatif/what-if-limits';

/** The write routes a `simulate` applies to: Marathon's app, pod and group writes. */
const SIMULATED_ROUTE = /^(POST|PUT|PATCH|DELETE) \/v2\/(apps|groups|pods)(\/\*)?$/;

/** Set while a simulated request's handler runs: its command is captured instead of submitted. */
const simulating = new AsyncLocalStorage<true>();

/** Thrown by the routes' `submit` inside a simulated request: carries the command to simulate. */
class CommandCaptured extends Error {
  constructor(readonly command: Command) {
    super('captured for a what-if');
  }
}

/**
 * What-if dry runs (issue 18; docs/what-if.md): `?dryRun=true&simulate=PT30M` on any app, pod or
 * group write. An `onRoute` hook wraps those routes' handlers (registered after the authorization
 * plugin's, so it runs outside it): with `simulate`, the route's own handler runs — the same
 * parsing, validation, 4xx answers and authorization (`authorize` is asked for the command, as the
 * write would be) — but the command it submits is captured instead of reaching the core, applied
 * to a fork of the live cluster (`deps.whatIf`) and the fork's answer is sent. `dryRun` is taken
 * out of the query the handler sees, so that a group PUT builds its command instead of its plain
 * dry-run plan. Without `simulate`, nothing changes: plain `dryRun=true` keeps Marathon's answer.
 * Returns the deps the routes must be given.
 */
export function installWhatIf(app: FastifyInstance, deps: ApiDeps): ApiDeps {
  app.addHook('onRoute', (route) => {
    const method = [route.method].flat()[0];
    if (!SIMULATED_ROUTE.test(`${method} ${route.url ?? route.path}`)) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function whatIf(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const query = request.query as Record<string, string | string[] | undefined>;
      // A handler that sent its reply and returned nothing means "sent" only outside an async
      // function: wrapped in this one, fastify would take the resolved undefined for an empty
      // answer and send again while the first reply still waits for the store (under --zk,
      // runtime/durable-replies.ts), crashing the process (ERR_HTTP_HEADERS_SENT). So nothing
      // returned stands for the reply, as it does for a route that is not wrapped.
      if (query.simulate === undefined) return (handler.call(this, request, reply) as unknown) ?? reply;
      const durationMs = simulateMs(query, deps);
      delete query.dryRun;
      let returned: unknown;
      try {
        returned = await simulating.run(true, () => handler.call(this, request, reply));
      } catch (err) {
        if (err instanceof CommandCaptured) return reply.code(200).send(answer(deps, err.command, durationMs));
        throw err;
      }
      // The handler answered without submitting anything (nothing to change): its own answer.
      return returned ?? reply;
    };
  });
  // deps with its own submit; its getters stay getters (with --zk, `scheduler` is the current
  // term's and throws on a standby: a spread would read it once, here, and fail or keep it stale).
  const submit: ApiDeps['submit'] = (command) => {
    if (simulating.getStore() === undefined) return deps.submit(command);
    deps.authorize?.(command);
    throw new CommandCaptured(command);
  };
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(deps), submit: { value: submit, enumerable: true } }) as ApiDeps;
}

/** `simulate` checked: needs `dryRun=true` and the what-if service; an ISO 8601 duration within the bound. */
function simulateMs(query: Query, deps: ApiDeps): number {
  if (!queryBool(query, 'dryRun', false)) throw badRequest('simulate needs dryRun=true (without it the change would be made)');
  if (deps.whatIf === undefined) throw illegalArgument('What-if (simulate) is not available on this pacer');
  // A repeated `simulate` (an array) is refused by parseSimulate: it must be given once.
  const parsed = parseSimulate(query.simulate, deps.whatIf.limits.maxSimulateMs);
  if (!parsed.ok) throw badRequest(parsed.message);
  return parsed.ms;
}

/** The fork's answer; a change the fork's core refuses is refused as the live write would be (409, 422, …). */
function answer(deps: ApiDeps, command: Command, durationMs: number): unknown {
  const whatIf = deps.whatIf;
  if (whatIf === undefined) throw illegalArgument('What-if (simulate) is not available on this pacer');
  let out: ReturnType<typeof whatIf.simulate>;
  try {
    out = whatIf.simulate(command, durationMs);
  } catch (err) {
    if (err instanceof WhatIfRefused) throw illegalArgument(err.message);
    throw illegalArgument(`The what-if could not be run: ${(err as Error).message}`);
  }
  if ('refused' in out) throw commandError(out.refused, deps.config.maxRunningDeployments);
  return out;
}
