import type { Test } from 'tap';
import type { TaskLaunch } from '../../src/scheduler/model/launch';
import type { Offer } from '../../src/scheduler/model/offer';
import { startSseServer, type SseServer } from '../api/events/sse-server-fixture';
import { makeOffer } from '../builders/cluster-builders';

/**
 * The conformance suite's view of pacer: the whole API and event stream listening on 127.0.0.1
 * (port 0) over a real core in manual time, spoken to through a real HTTP client (`fetch`) on a
 * real socket, as a Marathon client library would: every request carries `Content-Type:
 * application/json` and `Accept: application/json`, with or without a body. Each test names the
 * Marathon behaviour it checks and the Marathon source file that behaviour comes from
 * (`mesosphere/marathon`, the 1.11 line; facts in ../shared/spec/marathon-api-facts.md).
 */

/** Marathon source paths, shortened as marathon-api-facts.md does. */
export const MARATHON = {
  apps: 'src/main/scala/mesosphere/marathon/api/v2/AppsResource.scala',
  appVersions: 'src/main/scala/mesosphere/marathon/api/v2/AppVersionsResource.scala',
  appTasks: 'src/main/scala/mesosphere/marathon/api/v2/AppTasksResource.scala',
  appValidation: 'src/main/scala/mesosphere/marathon/api/v2/validation/AppValidation.scala',
  appWriter: 'src/main/scala/mesosphere/marathon/raml/AppConversion.scala',
  appRaml: 'docs/docs/rest-api/public/api/v2/types/app.raml',
  pods: 'src/main/scala/mesosphere/marathon/api/v2/PodsResource.scala',
  tasks: 'src/main/scala/mesosphere/marathon/api/v2/TasksResource.scala',
  taskWriter: 'src/main/scala/mesosphere/marathon/raml/TaskConversion.scala',
  groups: 'src/main/scala/mesosphere/marathon/api/v2/GroupsResource.scala',
  groupApi: 'src/main/scala/mesosphere/marathon/api/GroupApiService.scala',
  groupInfo: 'src/main/scala/mesosphere/marathon/core/appinfo/impl/DefaultInfoService.scala',
  deployments: 'src/main/scala/mesosphere/marathon/api/v2/DeploymentsResource.scala',
  deploymentWriter: 'src/main/scala/mesosphere/marathon/raml/DeploymentPlanConversion.scala',
  queue: 'src/main/scala/mesosphere/marathon/api/v2/QueueResource.scala',
  queueWriter: 'src/main/scala/mesosphere/marathon/raml/QueueInfoConversion.scala',
  info: 'src/main/scala/mesosphere/marathon/api/v2/InfoResource.scala',
  leader: 'src/main/scala/mesosphere/marathon/api/v2/LeaderResource.scala',
  system: 'src/main/scala/mesosphere/marathon/api/SystemResource.scala',
  cacheFilter: 'src/main/scala/mesosphere/marathon/api/CacheDisablingFilter.scala',
  exceptionMapper: 'src/main/scala/mesosphere/marathon/api/MarathonExceptionMapper.scala',
  restResource: 'src/main/scala/mesosphere/marathon/api/RestResource.scala',
  exceptions: 'src/main/scala/mesosphere/marathon/Exception.scala',
  eventServlet: 'src/main/scala/mesosphere/marathon/core/event/impl/stream/HttpEventStreamServlet.scala',
  eventHandle: 'src/main/scala/mesosphere/marathon/core/event/impl/stream/HttpEventStreamHandleActor.scala',
  events: 'src/main/scala/mesosphere/marathon/core/event/Events.scala',
  eventFormats: 'src/main/scala/mesosphere/marathon/api/v2/json/Formats.scala',
  healthChecks: 'src/main/scala/mesosphere/marathon/raml/HealthCheckConversion.scala',
  servicePorts: 'src/main/scala/mesosphere/marathon/core/group/impl/AssignDynamicServiceLogic.scala',
  scheduling: 'src/main/scala/mesosphere/marathon/api/v2/validation/SchedulingValidation.scala',
} as const;

/** The test title: the behaviour, then where Marathon does it. */
export function behaviour(what: string, source: string): string {
  return `${what} — marathon: ${source}`;
}

/** A response as a client sees it. */
export interface Res {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body; `undefined` when it is empty or not JSON. */
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are inspected field by field
}

/** pacer listening on a real socket, with the core's manual time at hand. */
export interface Pacer {
  readonly server: SseServer;
  readonly base: string;
  /** One request; `body` (an object, or a string sent as is) or none, with the JSON content type either way. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  /** Offers resources and drives every task launched on them to TASK_RUNNING. */
  runAll(...offers: Offer[]): TaskLaunch[];
}

/** A fresh pacer for one test, closed when it ends. */
export async function pacer(t: Test): Promise<Pacer> {
  const server = await startSseServer();
  t.teardown(() => server.app.close());
  const base = server.baseUrl;
  const call: Pacer['call'] = async (method, path, body, headers = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  const runAll: Pacer['runAll'] = (...offers) => {
    const launched = server.harness.offer(...(offers.length > 0 ? offers : [makeOffer()]));
    server.harness.run(launched);
    return launched;
  };
  return { server, base, call, runAll };
}

/** A minimal app body. */
export function app(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, cmd: 'sleep 100', cpus: 0.1, mem: 32, ...overrides };
}

/** Creates an app (201 expected) and runs its instances to TASK_RUNNING. */
export async function runningApp(t: Test, p: Pacer, id: string, overrides: Record<string, unknown> = {}): Promise<TaskLaunch[]> {
  const res = await p.call('POST', '/v2/apps', app(id, overrides));
  t.equal(res.status, 201, `created ${id}`);
  return p.runAll();
}

/** Marathon's random deployment ids (fact 61). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Marathon timestamps: ISO 8601 UTC with milliseconds. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
