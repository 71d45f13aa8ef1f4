import { AsyncLocalStorage } from 'node:async_hooks';
import type { Access } from './policy';

/**
 * Whose request a handler is serving, as the authorization plugin sets it around every route
 * handler: the caller's {@link Access}, or `open` for a route served without credentials
 * (`--http_auth_open_paths`). Outside any handler there is none, and writes are refused.
 */
export type RequestAccess = Access | 'open';

const current = new AsyncLocalStorage<RequestAccess>();

/** Runs `fn` (a route handler) as `access`: everything it calls, now or after an await, sees it. */
export function runAs<T>(access: RequestAccess, fn: () => T): T {
  return current.run(access, fn);
}

/** The access of the handler being run, or undefined outside any. */
export function currentAccess(): RequestAccess | undefined {
  return current.getStore();
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's rights under `--authorization_file`; null without it, or on an open route. */
    access: Access | null;
  }
}
