import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import type { ApiAuthentication } from '../../../src/api/auth/api-authentication';
import { basic, openAuth, tempDir } from '../auth/auth-kit';
import { launchRunning } from '../tasks/tasks-fixture';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { makeOffer } from '../../builders/cluster-builders';

/** Every test principal's password (plain `--http_credentials`: no scrypt cost in tests). */
const PASSWORD = 'pw-0123456789';

/** The principals of {@link POLICY}. */
export const PRINCIPALS = ['admin', 'alice', 'bob', 'lead', 'viewer', 'nobody'] as const;
export type TestPrincipal = (typeof PRINCIPALS)[number];

/**
 * The test policy: `admin` may do everything; `alice` owns `/team-a`; `bob` owns `/team-b` and
 * may only view `/team-a`; `lead` may update every group but change run specs only in `/team-b`
 * (so a group change is checked run spec by run spec); `viewer` may view everything (system
 * resources too); `nobody` is
 * authenticated but named nowhere. Marathon's names and the aliases are both used.
 */
export const POLICY = `
principals:
  admin:
    - { path: /, actions: [all] }
  alice:
    - path: /team-a
      actions: [view, create, update, delete]
  bob:
    - path: /team-b
      actions: [all]
    - path: /team-a
      actions: [ViewRunSpec, ViewGroup]
  lead:
    - { path: /, actions: [ViewGroup, UpdateGroup] }
    - { path: /team-b, actions: [all] }
  viewer:
    - { path: /, actions: [view] }
`;

/** `Authorization` header of a test principal. */
export function as(principal: TestPrincipal): Record<string, string> {
  return { authorization: basic(principal, PASSWORD) };
}

/** An ApiAuthentication with every test principal and `policy` written to a temporary file. */
export function authzAuth(t: Test, policy = POLICY, log: string[] = []): { auth: ApiAuthentication; policyPath: string } {
  const policyPath = join(tempDir(t, 'pacer-authz-'), 'policy.yaml');
  writeFileSync(policyPath, policy);
  const auth = openAuth({ httpCredentials: PRINCIPALS.map((p) => `${p}:${PASSWORD}`).join(','), authorizationFile: policyPath }, log);
  t.teardown(() => auth.close());
  return { auth, policyPath };
}

/** The ids the seeded state holds. */
export const SEEDED = {
  teamAApp: '/team-a/web',
  teamAPod: '/team-a/db',
  teamAPending: '/team-a/pending',
  teamBApp: '/team-b/api',
} as const;

/**
 * Seeds the core directly (not through the API): `/team-a/web` (2 running instances),
 * `/team-a/db` (a pod), `/team-b/api` (1 running) and `/team-a/pending`, whose deployment keeps
 * running (no offer fits it).
 */
export function seed(fx: ApiFixture): { teamATaskId: string; teamBTaskId: string; pendingDeploymentId: string } {
  const web = launchRunning(fx, makeApp({ id: SEEDED.teamAApp, instances: 2, cpus: 0.1, mem: 16 }), makeOffer({ cpus: 4, mem: 4096 }));
  launchRunning(fx, makePod({ id: SEEDED.teamAPod, containers: [{ name: 'c' }] }), makeOffer({ cpus: 4, mem: 4096 }));
  const api = launchRunning(fx, makeApp({ id: SEEDED.teamBApp, instances: 1, cpus: 0.1, mem: 16 }), makeOffer({ cpus: 4, mem: 4096 }));
  const pending = fx.harness.put(makeApp({ id: SEEDED.teamAPending, instances: 1, cpus: 100 }));
  if (!pending.ok || pending.deploymentId === undefined) throw new Error('the pending deployment did not start');
  return { teamATaskId: web[0].taskId, teamBTaskId: api[0].taskId, pendingDeploymentId: pending.deploymentId };
}

/** An API behind the test policy, seeded. */
export function authzApi(t: Test, policy = POLICY): ApiFixture & ReturnType<typeof seed> & PolicyHandle {
  const log: string[] = [];
  const { auth, policyPath } = authzAuth(t, policy, log);
  const fx = makeApi({ auth });
  t.teardown(() => fx.app.close());
  return { ...fx, ...seed(fx), policyPath, log, reloadPolicy: () => auth.reload(), watchPolicy: (ms) => auth.watch(ms) };
}

/** The policy file of a test API and its reload (SIGHUP's) and watch. */
export interface PolicyHandle {
  readonly policyPath: string;
  /** Lines the reloads logged. */
  readonly log: string[];
  reloadPolicy(): void;
  watchPolicy(intervalMs: number): void;
}

/** A snapshot of everything a write could change: run specs (as JSON), instances, deployments. */
export function stateOf(fx: ApiFixture): string {
  const s = fx.harness.scheduler;
  return JSON.stringify({
    root: s.root().version,
    specs: s.runSpecs().map((r) => JSON.stringify(r)).sort(),
    instances: s.runSpecs().flatMap((r) => s.instances(r.id).map((i) => `${i.instanceId}:${i.goal}:${i.condition}`)).sort(),
    deployments: s.runningPlans().map((p) => p.id).sort(),
  });
}
