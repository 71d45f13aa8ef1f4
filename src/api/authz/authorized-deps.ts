import type { ApiDeps } from '../api-deps';
import { notAuthorized } from '../errors';
import type { Command } from '../../scheduler/model/inputs';
import { runSpecChecks } from './command-check';
import { currentAccess } from './request-access';

/**
 * The routes' deps under `--authorization_file`: every command goes through `authorize` before
 * it reaches the core, as the handler's caller (set around each handler by the authorization
 * plugin). A command touching any run spec the caller may not touch that way is refused whole
 * with Marathon's 403 and changes nothing. A command submitted outside any handler is refused
 * (fails closed). Routes that submit several commands for one request call `authorize` on each
 * first, so that none runs unless all may.
 */
export function authorizedDeps(deps: ApiDeps): ApiDeps {
  const authorize = (command: Command): void => {
    const access = currentAccess();
    if (access === 'open') return;
    if (access === undefined) throw notAuthorized();
    for (const check of runSpecChecks(command, deps.scheduler)) {
      if (!access.may(check.action, check.path)) throw notAuthorized();
    }
  };
  return {
    ...deps,
    authorize,
    submit: (command) => {
      authorize(command);
      return deps.submit(command);
    },
  };
}
