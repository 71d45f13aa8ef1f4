import t from 'tap';
import { loadScenario, SCENARIO_ERRORS_MAX } from '../../../../sim/scenario/load-scenario';

/** A valid scenario; each case replaces one part of it. */
function scenario(parts: { head?: string; cluster?: string; timeline?: string } = {}): string {
  return `${parts.head ?? 'name: x\nseed: 1\nduration: 30m'}
cluster:
  agents:
${parts.cluster ?? '    - count: 3\n      resources: { cpus: 4, mem: 8192 }'}
timeline:
  - at: 0s
    app: { id: /web, instances: 2, cmd: sleep 100 }
${parts.timeline ?? ''}`;
}

interface Case {
  readonly name: string;
  readonly text: string;
  /** Every error, exactly, in order. */
  readonly errors: readonly string[];
}

const F = 'scenarios/x.yaml';

const cases: readonly Case[] = [
  {
    name: 'bad duration',
    text: scenario({ timeline: '  - at: 5 min\n    scale: { id: /web, instances: 1 }' }),
    errors: [`${F}: /timeline/1/at: expected a duration such as "30s", "5m", "1h30m" or a number of milliseconds, got "5 min" (line 11)`],
  },
  {
    name: 'negative or fractional number of milliseconds',
    text: scenario({ head: 'name: x\nseed: 1\nduration: 1.5' }),
    errors: [`${F}: /duration: expected a duration such as "30s", "5m", "1h30m" or a number of milliseconds, got 1.5 (line 3)`],
  },
  {
    name: 'duration finer than a millisecond',
    text: scenario({ timeline: '  - at: 0.5ms\n    scale: { id: /web, instances: 1 }' }),
    errors: [`${F}: /timeline/1/at: expected a whole number of milliseconds, got "0.5ms" (line 11)`],
  },
  {
    name: 'unknown key, with a suggestion',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192, cpu: 2 }' }),
    errors: [`${F}: /cluster/agents/0/resources/cpu: unknown field "cpu"; did you mean "cpus"? (allowed: cpus, mem, disk, gpus, ports) (line 6)`],
  },
  {
    name: 'unknown top-level key',
    text: `${scenario()}\nseeed: 3`,
    errors: [`${F}: /seeed: unknown field "seeed"; did you mean "seed"? (allowed: name, description, seed, duration, options, invariants, cluster, timeline) (line 12)`],
  },
  {
    // It was two: the unknown field and 'required field "timeline" is missing'.
    name: 'a misspelt required field is one error, at the top level and in an agent group',
    text: scenario({ head: 'name: x\nseed: 1\nduraton: 30m', cluster: '    - resource: { cpus: 4, mem: 8192 }' }),
    errors: [
      `${F}: /duraton: unknown field "duraton"; did you mean "duration"? (allowed: name, description, seed, duration, options, invariants, cluster, timeline) (line 3)`,
      `${F}: /cluster/agents/0/resource: unknown field "resource"; did you mean "resources"? (allowed: count, start, idPrefix, hostnamePrefix, region, zones, resources, reserved, attributes) (line 6)`,
    ],
  },
  {
    name: 'a required field missing with an unknown field that is no misspelling of it: both',
    text: scenario({ head: 'name: x\nseed: 1\ncolour: blue' }),
    errors: [
      `${F}: /duration: required field "duration" is missing (expected a duration such as "30s", "5m", "1h30m" or a number of milliseconds) (line 1)`,
      `${F}: /colour: unknown field "colour" (allowed: name, description, seed, duration, options, invariants, cluster, timeline) (line 3)`,
    ],
  },
  {
    name: 'unknown action',
    text: scenario({ timeline: '  - at: 1m\n    explode: /web' }),
    errors: [`${F}: /timeline/1/explode: unknown field "explode" (allowed: at, force, app, pod, scale, delete, kill, partition, heal, killAgent, addAgents, health, taskModel, resetDelay, deploy, cancelDeployment, schedulerFailover, expect, note) (line 12)`],
  },
  {
    name: 'misspelt action',
    text: scenario({ timeline: '  - at: 1m\n    scael: { id: /web, instances: 1 }' }),
    errors: [`${F}: /timeline/1/scael: unknown field "scael"; did you mean "scale"? (allowed: at, force, app, pod, scale, delete, kill, partition, heal, killAgent, addAgents, health, taskModel, resetDelay, deploy, cancelDeployment, schedulerFailover, expect, note) (line 12)`],
  },
  {
    name: 'two actions in one step',
    text: scenario({ timeline: '  - at: 1m\n    scale: { id: /web, instances: 1 }\n    delete: /web' }),
    errors: [`${F}: /timeline/1: expected exactly one action besides "at" (one of: app, pod, scale, delete, kill, partition, heal, killAgent, addAgents, health, taskModel, resetDelay, deploy, cancelDeployment, schedulerFailover, expect, note), got a mapping with fields at, scale, delete (line 11)`],
  },
  {
    name: 'a step without an action',
    text: scenario({ timeline: '  - at: 1m' }),
    errors: [`${F}: /timeline/1: expected exactly one action besides "at" (one of: app, pod, scale, delete, kill, partition, heal, killAgent, addAgents, health, taskModel, resetDelay, deploy, cancelDeployment, schedulerFailover, expect, note), got a mapping with field at (line 11)`],
  },
  {
    name: 'decreasing at',
    text: scenario({ timeline: '  - at: 2m\n    scale: { id: /web, instances: 1 }\n  - at: 1m\n    delete: /web' }),
    errors: [`${F}: /timeline/2/at: expected a time at or after the previous step's (2m), got 1m: steps must be in time order (line 13)`],
  },
  {
    name: 'a step after the end of the run',
    text: scenario({ timeline: '  - at: 1h\n    delete: /web' }),
    errors: [`${F}: /timeline/1/at: expected a time within the run (duration 30m), got 1h: the step would never run (line 11)`],
  },
  {
    name: 'bad port range syntax',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192, ports: "31000..32000" }' }),
    errors: [`${F}: /cluster/agents/0/resources/ports: expected port ranges such as "31000-32000,33000-33100" or [[31000, 32000]], got "31000..32000" (line 6)`],
  },
  {
    name: 'port range with begin after end',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192, ports: "32000-31000" }' }),
    errors: [`${F}: /cluster/agents/0/resources/ports: range 32000-31000: the begin is greater than the end (line 6)`],
  },
  {
    name: 'overlapping port ranges given as pairs',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192, ports: [[31000, 32000], [31500, 31600]] }' }),
    errors: [`${F}: /cluster/agents/0/resources/ports: ranges 31000-32000 and 31500-31600 overlap (line 6)`],
  },
  {
    name: 'port beyond 65535',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192, ports: "65000-70000" }' }),
    errors: [`${F}: /cluster/agents/0/resources/ports: range 65000-70000: expected values ≤ 65535 (line 6)`],
  },
  {
    name: 'duplicate agent ids',
    text: scenario({ cluster: '    - count: 3\n      resources: { cpus: 4, mem: 8192 }\n    - start: 3\n      resources: { cpus: 1, mem: 1 }' }),
    errors: [`${F}: /cluster/agents/1: duplicate agent id "agent-3" (also in /cluster/agents/0); give the groups different idPrefix or start values (line 8)`],
  },
  {
    name: 'duplicate hostnames',
    text: scenario({ cluster: '    - idPrefix: a\n      hostnamePrefix: h\n      resources: { cpus: 4, mem: 8192 }\n    - idPrefix: b\n      hostnamePrefix: h\n      resources: { cpus: 1, mem: 1 }' }),
    errors: [`${F}: /cluster/agents/1: duplicate hostname "h-1" (also in /cluster/agents/0); give the groups different hostnamePrefix values (line 9)`],
  },
  {
    name: 'missing required fields, all at once',
    text: 'name: x\nduration: 1m\ncluster:\n  agents:\n    - resources: { cpus: 1 }\n',
    errors: [
      `${F}: /seed: required field "seed" is missing (line 1)`,
      `${F}: /timeline: required field "timeline" is missing (line 1)`,
      `${F}: /cluster/agents/0/resources/mem: required field "mem" is missing (line 5)`,
    ],
  },
  {
    name: 'partition of an unknown agent',
    text: scenario({ timeline: '  - at: 1m\n    partition: agent-9' }),
    errors: [`${F}: /timeline/1/partition: unknown agent "agent-9"; did you mean "agent-1"? (agents at this point: agent-1, agent-2, agent-3) (line 12)`],
  },
  {
    name: 'an agent named before the step that adds it',
    text: scenario({ timeline: '  - at: 1m\n    killAgent: agent-4\n  - at: 2m\n    addAgents: { resources: { cpus: 1, mem: 1 } }\n  - at: 3m\n    heal: agent-4' }),
    errors: [
      `${F}: /timeline/1/killAgent: unknown agent "agent-4"; did you mean "agent-1"? (agents at this point: agent-1, agent-2, agent-3) (line 12)`,
      `${F}: /timeline/3/heal: agent "agent-4" is not partitioned at this point: nothing to heal (line 16)`,
    ],
  },
  {
    name: 'bad comparison',
    text: scenario({ timeline: '  - at: 1m\n    expect: { instances: { /web: { Running: "=>2" } } }' }),
    errors: [`${F}: /timeline/1/expect/instances/~1web/Running: expected a whole number or a comparison such as ">=2", "<=3", ">0" or "2..4", got "=>2" (line 12)`],
  },
  {
    name: 'inverted comparison range',
    text: scenario({ timeline: '  - at: 1m\n    expect: { healthy: { /web: "4..2" } }' }),
    errors: [`${F}: /timeline/1/expect/healthy/~1web: range "4..2": the minimum is greater than the maximum (line 12)`],
  },
  {
    name: 'unknown condition in instances',
    text: scenario({ timeline: '  - at: 1m\n    expect: { instances: { /web: { running: 2 } } }' }),
    errors: [`${F}: /timeline/1/expect/instances/~1web/running: unknown field "running"; did you mean "Running"? (allowed: Scheduled, Provisioned, Staging, Starting, Running, Killing, Killed, Finished, Failed, Error, Unreachable, UnreachableInactive, Gone, Dropped, Unknown, total) (line 12)`],
  },
  {
    name: 'reference to an app the file never creates',
    text: scenario({ timeline: '  - at: 1m\n    scale: { id: /wbe, instances: 1 }' }),
    errors: [`${F}: /timeline/1/scale/id: no app or pod with id "/wbe" in this scenario; did you mean "/web"? (apps and pods: /web) (line 12)`],
  },
  {
    name: 'unknown health model kind',
    text: scenario({ timeline: '  - at: 1m\n    health: { id: /web, model: { kind: flakey, p: 0.1 } }' }),
    errors: [`${F}: /timeline/1/health/model/kind: expected one of: healthy, flaky, failingFrom, failingDuring, slow, status, got "flakey"; did you mean "flaky"? (line 12)`],
  },
  {
    name: 'health model field out of range and unknown',
    text: scenario({ timeline: '  - at: 1m\n    health: { id: /web, model: { kind: flaky, p: 2, q: 1 } }' }),
    errors: [
      `${F}: /timeline/1/health/model/q: unknown field "q" (allowed: kind, p) (line 12)`,
      `${F}: /timeline/1/health/model/p: expected a probability from 0 to 1, got 2 (line 12)`,
    ],
  },
  {
    name: 'missing model kind',
    text: scenario({ timeline: '  - at: 1m\n    taskModel: { id: /web, model: { after: 1s } }' }),
    errors: [`${F}: /timeline/1/taskModel/model/kind: required field "kind" is missing (one of: runForever, exitAfter, failToStart) (line 12)`],
  },
  {
    name: 'bad delay range',
    text: scenario({ timeline: '  - at: 1m\n    taskModel: { id: /web, model: { kind: exitAfter, after: [20s, 10s] } }' }),
    errors: [`${F}: /timeline/1/taskModel/model/after: expected [min, max] with min ≤ max, got [20s, 10s] (line 12)`],
  },
  {
    name: 'unknown template in an attribute',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192 }\n      attributes: { rack: "r{m}" }' }),
    errors: [`${F}: /cluster/agents/0/attributes/rack: unknown template "{m}" in "r{m}" (use {n} for the agent number or {n%K} for it modulo K) (line 7)`],
  },
  {
    name: 'bad attribute value',
    text: scenario({ cluster: '    - resources: { cpus: 4, mem: 8192 }\n      attributes: { ssd: true }' }),
    errors: [`${F}: /cluster/agents/0/attributes/ssd: expected text, a number, {set: [a, b]} or {ranges: "1-5,7-9"}, got true (line 7)`],
  },
  {
    name: 'misspelt event field in where',
    text: scenario({ timeline: '  - at: 1m\n    expect: { events: [ { type: app_terminated_event, where: { appID: /web } } ] }' }),
    errors: [`${F}: /timeline/1/expect/events/0/where/appID: app_terminated_event has no field "appID"; did you mean "appId"? (fields: eventType, timestamp, appId) (line 12)`],
  },
  {
    // Each matched no event, so the check failed (or passed a max) at run time with "got 0".
    name: 'where values no event can have: an id of no app, a number for an id, a misspelt task state and condition',
    text: scenario({
      timeline: '  - at: 1m\n    expect:\n      events:\n'
        + '        - { type: instance_changed_event, where: { runSpecId: /nope } }\n'
        + '        - { type: status_update_event, where: { appId: 5, taskStatus: TASK_RUNING } }\n'
        + '        - { type: instance_changed_event, where: { condition: running } }',
    }),
    errors: [
      `${F}: /timeline/1/expect/events/0/where/runSpecId: no app or pod with id "/nope" in this scenario (apps and pods: /web) (line 14)`,
      `${F}: /timeline/1/expect/events/1/where/appId: expected the id of an app or pod of this scenario, such as "/web", got 5 (line 15)`,
      `${F}: /timeline/1/expect/events/1/where/taskStatus: expected one of: TASK_STAGING, TASK_STARTING, TASK_RUNNING, TASK_KILLING, TASK_FINISHED, TASK_FAILED, TASK_KILLED, TASK_ERROR, TASK_LOST, TASK_DROPPED, TASK_UNREACHABLE, TASK_GONE, TASK_GONE_BY_OPERATOR, TASK_UNKNOWN, got "TASK_RUNING"; did you mean "TASK_RUNNING"? (line 15)`,
      `${F}: /timeline/1/expect/events/2/where/condition: expected one of: Scheduled, Provisioned, Staging, Starting, Running, Killing, Killed, Finished, Failed, Error, Unreachable, UnreachableInactive, Gone, Dropped, Unknown, got "running"; did you mean "Running"? (line 16)`,
    ],
  },
  {
    name: 'kill with both count and agent',
    text: scenario({ timeline: '  - at: 1m\n    kill: { id: /web, count: 1, agent: agent-1 }' }),
    errors: [`${F}: /timeline/1/kill: give either count (how many instances) or agent (all instances on that agent), not both (line 12)`],
  },
  {
    name: 'wrong type',
    text: scenario({ head: 'name: x\nseed: "one"\nduration: 30m' }),
    errors: [`${F}: /seed: expected a whole number, got "one" (line 2)`],
  },
  {
    name: 'empty text and an empty list',
    text: 'name: ""\nseed: 1\nduration: 1m\ncluster: { agents: [] }\ntimeline: []',
    errors: [
      `${F}: /name: expected non-empty text (line 1)`,
      `${F}: /cluster/agents: expected a list of at least 1 item, got a list of 0 items (line 4)`,
    ],
  },
  {
    name: 'out-of-range whole numbers and a wrong boolean',
    text: scenario({
      head: 'name: x\nseed: -1\nduration: 30m\noptions: { taskKilling: "yes", maxInstancesPerOffer: 0 }',
      cluster: '    - count: 0\n      resources: { cpus: 1, mem: 1 }',
    }),
    errors: [
      `${F}: /seed: expected a whole number >= 0, got -1 (line 2)`,
      `${F}: /options/taskKilling: expected true or false, got "yes" (line 4)`,
      `${F}: /options/maxInstancesPerOffer: expected a whole number >= 1, got 0 (line 4)`,
      `${F}: /cluster/agents/0/count: expected a whole number >= 1, got 0 (line 7)`,
    ],
  },
  {
    name: 'empty expectations',
    text: scenario({ timeline: '  - at: 1m\n    expect: {}\n  - at: 1m\n    expect: { instances: { /web: {} } }' }),
    errors: [
      `${F}: /timeline/1/expect: expected at least one of: instances, healthy, spread, onAgents, events, deployments, rejections (line 12)`,
      `${F}: /timeline/2/expect/instances/~1web: expected at least one of: Scheduled, Provisioned, Staging, Starting, Running, Killing, Killed, Finished, Failed, Error, Unreachable, UnreachableInactive, Gone, Dropped, Unknown, total (line 14)`,
    ],
  },
  {
    name: 'unknown event type and rejection reason',
    text: scenario({ timeline: '  - at: 1m\n    expect: { events: [ { type: status_update } ], rejections: [ { id: /web, reason: NoCpus } ] }' }),
    errors: [
      `${F}: /timeline/1/expect/events/0/type: expected one of: status_update_event, instance_changed_event, instance_health_changed_event, health_status_changed_event, failed_health_check_event, add_health_check_event, remove_health_check_event, unhealthy_task_kill_event, unhealthy_instance_kill_event, pacer_unhealthy_kill_deferred_event, pacer_unhealthy_kill_deferral_ended_event, unknown_instance_terminated_event, app_terminated_event, deployment_info, deployment_step_success, deployment_step_failure, deployment_success, deployment_failed, group_change_success, group_change_failed, got "status_update"; did you mean "status_update_event"? (line 12)`,
      `${F}: /timeline/1/expect/rejections/0/reason: expected one of: UnfulfilledRole, UnfulfilledConstraint, NoCorrespondingReservationFound, AgentMaintenance, InsufficientCpus, InsufficientMemory, InsufficientDisk, InsufficientGpus, InsufficientPorts, DeclinedScarceResources, got "NoCpus" (line 12)`,
    ],
  },
  {
    name: 'a Marathon definition without id, and one that is not a mapping',
    text: scenario({ timeline: '  - at: 1m\n    app: { instances: 1 }\n  - at: 1m\n    pod: [1]' }),
    errors: [
      `${F}: /timeline/1/app/id: required field "id" is missing (expected an app or pod id such as "/web") (line 12)`,
      `${F}: /timeline/2/pod: expected a Marathon definition: an object with a string "id" (the pod JSON of the REST API, written as YAML), got a list of 1 item (line 14)`,
    ],
  },
  {
    name: 'a delay range of three',
    text: scenario({ head: 'name: x\nseed: 1\nduration: 30m\noptions: { timings: { staging: [1s, 2s, 3s] } }' }),
    errors: [`${F}: /options/timings/staging: expected a delay range [min, max] of durations, or one duration (a duration such as "30s", "5m", "1h30m" or a number of milliseconds), got a list of 3 items (line 4)`],
  },
  {
    name: 'a spread entry without any check',
    text: scenario({ timeline: '  - at: 1m\n    expect: { spread: [ { id: /web, field: "@zone" } ] }' }),
    errors: [`${F}: /timeline/1/expect/spread/0: expected at least one check: values, maxPerValue, minPerValue or maxSkew (line 12)`],
  },
  {
    name: 'failingDuring that ends before it starts',
    text: scenario({ timeline: '  - at: 1m\n    health: { id: /web, model: { kind: failingDuring, from: 5m, to: 4m } }' }),
    errors: [`${F}: /timeline/1/health/model/to: expected a time after from (5m), got 4m (line 12)`],
  },
  {
    name: 'events min above max, and onAgents naming an unknown agent',
    text: scenario({ timeline: '  - at: 1m\n    expect: { events: [ { type: app_terminated_event, min: 3, max: 1 } ], onAgents: [ { id: /web, agents: [agent-1, nope] } ] }' }),
    errors: [
      `${F}: /timeline/1/expect/onAgents/0/agents/1: unknown agent "nope" (agents at this point: agent-1, agent-2, agent-3) (line 12)`,
      `${F}: /timeline/1/expect/events/0: min (3) is greater than max (1) (line 12)`,
    ],
  },
  {
    // It counted nothing, ever, and failed at run time as "expected >= 1, got 0" (or passed a max).
    name: 'an events check whose since is after its own step',
    text: scenario({ timeline: '  - at: 1m\n    expect: { events: [ { type: status_update_event, since: 5m }, { type: status_update_event, since: 1m, max: 0 } ] }\n  - at: 2m\n    expect:\n      events:\n        - { type: status_update_event, since: 3m, max: 0 }' }),
    errors: [
      `${F}: /timeline/1/expect/events/0/since: expected a time at or before the step's own (1m), got 5m: events are counted from since to the step, so none would count (line 12)`,
      `${F}: /timeline/2/expect/events/0/since: expected a time at or before the step's own (2m), got 3m: events are counted from since to the step, so none would count (line 16)`,
    ],
  },
  {
    name: 'a zero offer interval',
    text: scenario({ head: 'name: x\nseed: 1\nduration: 30m\noptions: { timings: { offerInterval: 0 } }' }),
    errors: [`${F}: /options/timings/offerInterval: expected a duration greater than 0 (line 4)`],
  },
  {
    name: 'a misspelt field inside an app definition',
    text: scenario({ timeline: '  - at: 1m\n    app:\n      id: /db\n      cmd: sleep 100\n      instnaces: 3' }),
    errors: [`${F}: /timeline/1/app/instnaces: unknown field "instnaces"; did you mean "instances"? (allowed: id, acceptedResourceRoles, args, backoffFactor, backoffSeconds, cmd, constraints, container, cpus, dependencies, disk, env, … (41 in all)) (line 15)`],
  },
  {
    name: 'a wrong type inside an app definition says what was expected, with its line',
    text: scenario({ timeline: '  - at: 1m\n    app:\n      id: /db\n      cmd: sleep 100\n      cpus: lots\n      healthChecks: [{ protocol: HTTP, pth: / }]' }),
    errors: [
      `${F}: /timeline/1/app/cpus: expected a number, got "lots" (line 15)`,
      `${F}: /timeline/1/app/healthChecks/0/pth: unknown field "pth"; did you mean "path"? (allowed: command, gracePeriodSeconds, intervalSeconds, maxConsecutiveFailures, timeoutSeconds, delaySeconds, ignoreHttp1xx, path, port, portIndex, protocol, ipProtocol) (line 16)`,
    ],
  },
  {
    name: 'unknown fields and bad values inside pod definitions and deploy steps',
    text: scenario({
      timeline: [
        '  - at: 1m',
        '    pod:',
        '      id: /p',
        '      containers: [{ name: c, resources: { cpus: 0.1, mem: 32, cpu: 1 } }]',
        '      scheduling: { killSelection: oldest }',
        '  - at: 2m',
        '    deploy:',
        '      apps: [{ id: /x, cmd: sleep 1, mem: -1, labels: { a: 1 } }]',
        '      pods: [{ id: /q, containers: [{ name: c, resources: { cpus: 0.1, mem: 32 } }], scalling: { instances: 2 } }]',
      ].join('\n'),
    }),
    errors: [
      `${F}: /timeline/1/pod/containers/0/resources/cpu: unknown field "cpu"; did you mean "cpus"? (allowed: cpus, mem, disk, gpus) (line 14)`,
      `${F}: /timeline/1/pod/scheduling/killSelection: expected one of: YOUNGEST_FIRST, OLDEST_FIRST (in any case), got "oldest"; did you mean "OLDEST_FIRST"? (line 15)`,
      `${F}: /timeline/2/deploy/apps/0/labels/a: expected text, got 1 (line 18)`,
      `${F}: /timeline/2/deploy/apps/0/mem: expected a number >= 0, got -1 (line 18)`,
      `${F}: /timeline/2/deploy/pods/0/scalling: unknown field "scalling"; did you mean "scaling"? (allowed: id, version, labels, environment, user, containers, secrets, volumes, networks, scaling, scheduling, executorResources, … (14 in all)) (line 19)`,
    ],
  },
  {
    name: 'an empty file',
    text: '',
    errors: [`${F}: /: expected a scenario: a mapping with name, seed, duration, cluster and timeline, got an empty value`],
  },
  {
    name: 'YAML syntax error',
    text: 'name: x\nseed: [1\nduration: 1m\n',
    errors: [`${F}: line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]`],
  },
  {
    name: 'duplicate YAML key, named',
    text: 'name: x\nname: y\n',
    errors: [`${F}: line 2, column 1: Map keys must be unique: "name" is given again in the same mapping`],
  },
  {
    name: 'every duplicate YAML key, each its own mistake, in a block and in a flow mapping',
    text: 'name: x\nseed: 1\nname: y\ncluster: { a: 1, a: 2 }\n"seed": 3\n',
    errors: [
      `${F}: line 3, column 1: Map keys must be unique: "name" is given again in the same mapping`,
      `${F}: line 4, column 18: Map keys must be unique: "a" is given again in the same mapping`,
      `${F}: line 5, column 1: Map keys must be unique: "seed" is given again in the same mapping`,
    ],
  },
  {
    // yaml reported six problems for it, five of them echoes of the tab.
    name: 'a tab as indentation is one error',
    text: scenario({ cluster: '\t- count: 3\n      resources: { cpus: 4, mem: 8192 }' }),
    errors: [`${F}: line 6, column 1: Tabs are not allowed as indentation`],
  },
  {
    // yaml's message asked the author to call YAML.parseAllDocuments().
    name: 'a second YAML document',
    text: `${scenario()}\n---\nname: y\n`,
    errors: [`${F}: line 12, column 1: a second YAML document starts here (after "---" or "..."); a scenario file holds one`],
  },
  {
    name: 'schedulerFailover: an unknown field',
    text: scenario({ timeline: '  - at: 1m\n    schedulerFailover: { downMs: 20000 }' }),
    errors: [`${F}: /timeline/1/schedulerFailover/downMs: unknown field "downMs" (allowed: downtime) (line 12)`],
  },
  {
    name: 'schedulerFailover: a downtime that is no duration',
    text: scenario({ timeline: '  - at: 1m\n    schedulerFailover: { downtime: 20 sec }' }),
    errors: [`${F}: /timeline/1/schedulerFailover/downtime: expected a duration such as "30s", "5m", "1h30m" or a number of milliseconds, got "20 sec" (line 12)`],
  },
  {
    name: 'schedulerFailover: commands and expectations while no scheduler leads, a second failover within the first',
    text: scenario({
      timeline: [
        '  - at: 1m', '    schedulerFailover: { downtime: 30s }',
        '  - at: 1m', '    partition: agent-1',
        '  - at: 1m10s', '    scale: { id: /web, instances: 3 }',
        '  - at: 1m20s', '    expect: { instances: { /web: { total: 2 } } }',
        '  - at: 1m30s', '    schedulerFailover: {}',
        '  - at: 1m31s', '    scale: { id: /web, instances: 3 }',
      ].join('\n'),
    }),
    errors: [
      `${F}: /timeline/3/scale: no scheduler leads from 1m to 1m30s (the schedulerFailover step at line 11): scale needs one; move it after 1m30s (line 16)`,
      `${F}: /timeline/4/expect: no scheduler leads from 1m to 1m30s (the schedulerFailover step at line 11): expect needs one; move it after 1m30s (line 18)`,
      `${F}: /timeline/5/schedulerFailover: no scheduler leads from 1m to 1m30s (the schedulerFailover step at line 11): schedulerFailover needs one; move it after 1m30s (line 20)`,
      `${F}: /timeline/6/scale: no scheduler leads from 1m30s to 1m40s (the schedulerFailover step at line 19): scale needs one; move it after 1m40s (line 22)`,
    ],
  },
  {
    name: 'a spread over an @ field that is not built in (a misspelt @zone would count no values and pass)',
    text: scenario({ timeline: "  - at: 1m\n    expect: { spread: [{ id: /web, field: '@zones', maxPerValue: 1 }, { id: /web, field: '@rack', values: 1 }] }" }),
    errors: [
      `${F}: /timeline/1/expect/spread/0/field: unknown field "@zones"; did you mean "@zone"? (built in: @hostname, @region, @zone; attribute names cannot start with "@") (line 12)`,
      `${F}: /timeline/1/expect/spread/1/field: unknown field "@rack" (built in: @hostname, @region, @zone; attribute names cannot start with "@") (line 12)`,
    ],
  },
  {
    name: 'schedulerFailover: the takeover after the end of the run',
    text: scenario({ head: 'name: x\nseed: 1\nduration: 2m', timeline: '  - at: 1m55s\n    schedulerFailover: { downtime: 10s }' }),
    errors: [`${F}: /timeline/1/schedulerFailover/downtime: expected the takeover within the run (duration 2m), got a downtime of 10s from 1m55s: no scheduler would lead at the end (line 12)`],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const result = loadScenario(F, c.text);
    t.equal(result.ok, false, 'the file is refused');
    if (result.ok) return;
    t.strictSame(result.errors, c.errors);
  });
}

t.test('all problems of a file come at once, in line order', async (t) => {
  const text = scenario({
    cluster: '    - resources: { cpus: 4, mem: 8192, ports: "2-1" }',
    timeline: '  - at: 2m\n    partition: nobody\n  - at: 1m\n    expect: { healthy: { /web: "3..1" } }',
  });
  const result = loadScenario(F, text);
  t.equal(result.ok, false);
  if (result.ok) return;
  t.strictSame(result.errors.map((error) => error.split(': ')[1]), [
    '/cluster/agents/0/resources/ports',
    '/timeline/1/partition',
    '/timeline/2/at',
    '/timeline/2/expect/healthy/~1web',
  ]);
});

/**
 * One load reports every mistake (docs/scenario-format.md, "How errors are reported"): each row
 * mixes mistakes that a first trial of the simulator saw only in a second round, after the
 * others were fixed — unknown keys inside an app, the API converter's rules, bad times, wrong
 * types, references — and lists them all, exactly, in line order.
 */
const oneGo: readonly Case[] = [
  {
    name: 'a bad `at` (schema) with an unknown key inside an app, an unknown agent, a run spec that is not there and a step after the end',
    text: scenario({
      timeline: [
        '  - at: 0s', '    app: { id: /db, cmd: sleep 1, instnaces: 3 }',
        '  - at: 5 min', '    partition: agent-1',
        '  - at: 1m', '    partition: agent-9',
        '  - at: 2m', '    kill: { id: /nope }',
        '  - at: 31m', '    heal: agent-1',
      ].join('\n'),
    }),
    errors: [
      `${F}: /timeline/1/app/instnaces: unknown field "instnaces"; did you mean "instances"? (allowed: id, acceptedResourceRoles, args, backoffFactor, backoffSeconds, cmd, constraints, container, cpus, dependencies, disk, env, … (41 in all)) (line 12)`,
      `${F}: /timeline/2/at: expected a duration such as "30s", "5m", "1h30m" or a number of milliseconds, got "5 min" (line 13)`,
      `${F}: /timeline/3/partition: unknown agent "agent-9"; did you mean "agent-1"? (agents at this point: agent-1, agent-2, agent-3) (line 16)`,
      `${F}: /timeline/4/kill/id: no app or pod with id "/nope" in this scenario (apps and pods: /web, /db) (line 18)`,
      `${F}: /timeline/5/at: expected a time within the run (duration 30m), got 31m: the step would never run (line 19)`,
    ],
  },
  {
    name: 'a wrong type (schema) with the API converter\'s rules and a wrong type inside an app',
    text: scenario({
      timeline: [
        '  - at: 1m', '    scale: { id: /web, instances: lots }',
        '  - at: 2m', '    app: { id: /db, cmd: sleep 1, constraints: [[hostname, UNIQUE, x]] }',
        '  - at: 3m', '    app: { id: /api, cmd: sleep 1, cpus: many }',
      ].join('\n'),
    }),
    errors: [
      `${F}: /timeline/1/scale/instances: expected a whole number, got "lots" (line 12)`,
      `${F}: /timeline/2/app/constraints/0: UNIQUE does not accept a value (line 14)`,
      `${F}: /timeline/3/app/cpus: expected a number, got "many" (line 16)`,
    ],
  },
  {
    name: 'a bad duration, time order, a bad timing, a __proto__ key and a missing field',
    text: scenario({
      head: 'name: x\nseed: 1\nduration: 30m\noptions: { timings: { offerInterval: 0, staging: 2 hours } }',
      timeline: [
        '  - at: 10m', '    note: first',
        '  - at: 5m', '    note: earlier',
        '  - at: 11m', '    scale: { id: /web }',
        '  - at: 12m', '    __proto__: 1', '    note: hi',
      ].join('\n'),
    }),
    errors: [
      `${F}: /options/timings/staging: expected a delay range [min, max] of durations, or one duration (a duration such as "30s", "5m", "1h30m" or a number of milliseconds), got "2 hours" (line 4)`,
      `${F}: /options/timings/offerInterval: expected a duration greater than 0 (line 4)`,
      `${F}: /timeline/2/at: expected a time at or after the previous step's (10m), got 5m: steps must be in time order (line 14)`,
      `${F}: /timeline/3/scale/instances: required field "instances" is missing (line 17)`,
      `${F}: /timeline/4/__proto__: the key "__proto__" is not allowed (line 19)`,
    ],
  },
  {
    name: 'an agent group with a mistake: its agents are not known, so names of agents are not reported as unknown; the rest is',
    text: scenario({
      cluster: '    - count: 3\n      resources: { cpus: 4, mem: 8192 }\n    - idPrefix: big\n      resources: { cpus: 4 }',
      timeline: '  - at: 1m\n    partition: big-1\n  - at: 2m\n    scale: { id: /wbe, instances: 1 }',
    }),
    errors: [
      `${F}: /cluster/agents/1/resources/mem: required field "mem" is missing (line 9)`,
      `${F}: /timeline/2/scale/id: no app or pod with id "/wbe" in this scenario; did you mean "/web"? (apps and pods: /web) (line 16)`,
    ],
  },
];

for (const c of oneGo) {
  t.test(`one load, every mistake: ${c.name}`, async (t) => {
    const result = loadScenario(F, c.text);
    t.equal(result.ok, false, 'the file is refused');
    if (result.ok) return;
    t.strictSame(result.errors, c.errors);
  });
}

/**
 * Impossible fault steps (docs/scenario-format.md, Timeline): only partition, heal and killAgent
 * change an agent, in file order, so each is checked against the ones before it when the file loads.
 */
const faults: readonly { name: string; steps: string; errors: readonly string[] }[] = [
  { name: 'heal of an agent never partitioned', steps: '  - { at: 1m, heal: agent-1 }', errors: [`${F}: /timeline/1/heal: agent "agent-1" is not partitioned at this point: nothing to heal (line 11)`] },
  { name: 'heal twice', steps: '  - { at: 1m, partition: agent-1 }\n  - { at: 2m, heal: agent-1 }\n  - { at: 3m, heal: agent-1 }', errors: [`${F}: /timeline/3/heal: agent "agent-1" is not partitioned at this point: nothing to heal (line 13)`] },
  { name: 'killAgent twice', steps: '  - { at: 1m, killAgent: agent-2 }\n  - { at: 2m, killAgent: agent-2 }', errors: [`${F}: /timeline/2/killAgent: agent "agent-2" was already killed (the killAgent step at line 11) (line 12)`] },
  { name: 'partition of a killed agent', steps: '  - { at: 1m, killAgent: agent-2 }\n  - { at: 2m, partition: agent-2 }', errors: [`${F}: /timeline/2/partition: agent "agent-2" was killed (the killAgent step at line 11): a dead agent cannot be partitioned (line 12)`] },
  { name: 'partition twice', steps: '  - { at: 1m, partition: agent-3 }\n  - { at: 1m, partition: agent-3 }', errors: [`${F}: /timeline/2/partition: agent "agent-3" is already partitioned (the partition step at line 11); heal it first (line 12)`] },
  { name: 'heal of an agent killed without a partition', steps: '  - { at: 1m, killAgent: agent-1 }\n  - { at: 2m, heal: agent-1 }', errors: [`${F}: /timeline/2/heal: agent "agent-1" is not partitioned at this point and was killed (the killAgent step at line 11): nothing to heal (line 12)`] },
  { name: 'fine: partition, heal, partition again, heal; killAgent while partitioned, then its heal (a warning at the step)', steps: '  - { at: 1m, partition: agent-1 }\n  - { at: 2m, heal: agent-1 }\n  - { at: 3m, partition: agent-1 }\n  - { at: 4m, killAgent: agent-1 }\n  - { at: 5m, heal: agent-1 }', errors: [] },
];

for (const c of faults) {
  t.test(`fault steps: ${c.name}`, async (t) => {
    const result = loadScenario(F, scenario({ timeline: c.steps }));
    t.strictSame(result.ok ? [] : result.errors, c.errors);
  });
}

t.test(`at most ${SCENARIO_ERRORS_MAX} problems are printed, then how many more`, async (t) => {
  const steps = Array.from({ length: 50 }, (_, i) => `  - at: ${i + 1}s\n    partition: nobody${i}`).join('\n');
  const result = loadScenario(F, scenario({ timeline: steps }));
  t.equal(result.ok, false);
  if (result.ok) return;
  t.equal(result.errors.length, SCENARIO_ERRORS_MAX + 1, result.errors.join('\n'));
  t.equal(result.errors.at(-1), `${F}: … and 30 more problems`);
});

t.test('a run spec id in where is written as in any step, with or without the leading / (without it, it matched nothing)', async (t) => {
  for (const id of ['web', '/web']) {
    const result = loadScenario(F, scenario({ timeline: `  - at: 1m\n    expect: { events: [ { type: status_update_event, where: { appId: ${id}, taskStatus: TASK_RUNNING } } ] }` }));
    t.ok(result.ok, id);
    if (!result.ok) continue;
    const step = result.scenario.timeline[1];
    t.strictSame(step?.action.type === 'expect' ? step.action.expectation.events[0]?.where : undefined, { appId: '/web', taskStatus: 'TASK_RUNNING' }, id);
  }
});
