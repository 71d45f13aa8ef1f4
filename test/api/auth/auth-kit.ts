import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Test } from 'tap';
import { tempDir as harnessTempDir } from '../../harness/temp-dir';
import type * as ServerModule from '../../../src/api/server';
import type { ServerParts } from '../../../src/api/server';
import { ApiAuthentication, type AuthLog } from '../../../src/api/auth/api-authentication';
import type { AuthOptions } from '../../../src/api/auth/auth-options';
import { pollPauseMs } from '../../harness/wait';
import { hashPassword } from '../../../src/api/auth/password-hash';

/** scrypt at its lowest accepted cost: the format and the code path of production, in milliseconds. */
export const FAST_SCRYPT = { logN: 10, r: 8, p: 1 } as const;

/** A fresh directory under the OS's temporary directory, removed at teardown. */
export function tempDir(t: { teardown(fn: () => void): void }, prefix = 'pacer-auth-'): string {
  return harnessTempDir(t, prefix);
}

/** Credentials-file text for `users` (user → password), hashed as `npm run passwd` does (cheaper). */
export async function credentialsText(users: Readonly<Record<string, string>>): Promise<string> {
  const lines = ['# made by the test'];
  for (const [user, password] of Object.entries(users)) lines.push(`${user}:${await hashPassword(password, FAST_SCRYPT)}`);
  return `${lines.join('\n')}\n`;
}

/** Writes a credentials file for `users` to `path`. */
export async function writeCredentials(path: string, users: Readonly<Record<string, string>>): Promise<string> {
  writeFileSync(path, await credentialsText(users));
  return path;
}

/** Writes a tokens file (principal → token) to `path`. */
export function writeTokens(path: string, tokens: Readonly<Record<string, string>>): string {
  writeFileSync(path, Object.entries(tokens).map(([principal, token]) => `${principal}:${token}\n`).join(''));
  return path;
}

/** `Authorization: Basic …` for `user:password`. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** `Authorization: Bearer …`. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** An ApiAuthentication for tests; log lines are collected in `log` (or given to it, with their level). */
export function openAuth(options: Partial<AuthOptions>, log: string[] | AuthLog = []): ApiAuthentication {
  const sink: AuthLog = typeof log === 'function' ? log : (line) => void log.push(line);
  const auth = ApiAuthentication.open({ realm: 'Mesosphere', openPaths: ['/ping'], ...options }, sink);
  if (auth === undefined) throw new Error('nothing configured');
  return auth;
}

/** A route of fastify's own table: method and URL pattern. */
export interface RouteEntry {
  readonly method: string;
  readonly url: string;
}

/**
 * `buildServer(parts)` with fastify's own route table recorded: src/api/server is loaded with
 * `fastify` wrapped so that an `onRoute` hook is on the instance before the first route, so every
 * route buildServer (or anything it calls) registers is listed — a route added later is tested
 * without anyone listing it.
 */
export async function serverWithRouteTable(t: Test, parts: ServerParts): Promise<{ app: FastifyInstance; routes: RouteEntry[] }> {
  const routes: RouteEntry[] = [];
  const recording = (options: FastifyServerOptions): FastifyInstance => {
    const app = Fastify(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    return app;
  };
  // Resolved here, so that the compiled test tree mocks its own copy (a relative id would be taken
  // from the TypeScript source's location).
  const server = t.mockRequire<typeof ServerModule>(require.resolve('../../../src/api/server'), {
    // fastify's other exports stay (the request log extends its LogController).
    fastify: Object.assign(recording, { default: recording, LogController }),
  });
  const app = server.buildServer(parts);
  await app.ready();
  return { app, routes };
}

/** A concrete URL for a route pattern: every `:param` and `*` filled in. */
export function concreteUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');
}

/**
 * A self-signed certificate for 127.0.0.1 made by `openssl` (node:crypto cannot make X.509
 * certificates); undefined when openssl is missing or fails — the caller skips, saying so.
 */
export function selfSignedCertificate(dir: string): { cert: string; key: string; pem: Buffer } | undefined {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ], { stdio: 'pipe', timeout: 60_000 });
  } catch {
    return undefined;
  }
  return { cert, key, pem: readFileSync(cert) };
}

/**
 * Resolves once the asynchronous `condition()` holds (checked at 10 ms, then less often, up to every
 * 100 ms: test/harness/wait.ts's pollPauseMs); rejects naming `what` after `timeoutMs`.
 */
export async function pollUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pauseMs: number | undefined;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    pauseMs = pollPauseMs(pauseMs);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
