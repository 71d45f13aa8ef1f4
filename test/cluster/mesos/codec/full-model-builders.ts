import type {
  Call,
  CommandInfo,
  ContainerID,
  ContainerInfo,
  DiscoveryInfo,
  Event,
  ExecutorInfo,
  FrameworkInfo,
  HealthCheck,
  Labels,
  Offer,
  Resource,
  TaskInfo,
  TaskStatus,
  Volume,
} from '../../../../src/cluster/mesos/codec/mesos-model';

/**
 * A type with every optional field made required, recursively. Builders typed with it must set
 * every field of the model, so a round trip through the codec proves that each model field exists
 * in the `.proto` subset with a compatible type (a field the schema lacked would be dropped).
 */
export type Full<T> = T extends Uint8Array
  ? T
  : T extends (infer Item)[]
    ? Full<Item>[]
    : T extends object
      ? { [K in keyof T]-?: Full<T[K]> }
      : T;

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

export const fullLabels = (): Full<Labels> => ({ labels: [{ key: 'k', value: 'v' }] });

export function fullVolume(): Full<Volume> {
  return {
    containerPath: 'shared',
    hostPath: '/var/shared',
    mode: 'RW',
    image: { type: 'DOCKER', docker: { name: 'busybox:1' }, cached: false },
    source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'shared' }, hostPath: { path: '/tmp' } },
  };
}

export function fullResource(): Full<Resource> {
  return {
    name: 'disk',
    type: 'SCALAR',
    scalar: { value: 10.5 },
    ranges: { range: [{ begin: 31000, end: 31005 }] },
    set: { item: ['a', 'b'] },
    role: 'eng',
    disk: {
      persistence: { id: 'vol-1', principal: 'p' },
      volume: fullVolume(),
      source: { type: 'MOUNT', path: { root: '/a' }, mount: { root: '/b' }, id: 'd1', metadata: fullLabels(), profile: 'fast', vendor: 'acme' },
    },
    reservation: { principal: 'p', labels: fullLabels(), role: 'eng', type: 'DYNAMIC' },
    revocable: {},
    shared: {},
    allocationInfo: { role: 'eng' },
    providerId: { value: 'rp' },
    reservations: [{ principal: 'p', labels: fullLabels(), role: 'eng', type: 'STATIC' }],
  };
}

export function fullCommand(): Full<CommandInfo> {
  return {
    uris: [{ value: 'https://example.invalid/a.tgz', executable: false, extract: true, cache: true, outputFile: 'a.tgz' }],
    environment: {
      variables: [
        {
          name: 'PORT0',
          value: '31000',
          type: 'SECRET',
          secret: { type: 'REFERENCE', reference: { name: 's', key: 'k' }, value: { data: bytes(1, 2, 3) } },
        },
      ],
    },
    value: './run',
    user: 'nobody',
    shell: false,
    arguments: ['./run', '--port', '31000'],
  };
}

export function fullHealthCheck(): Full<HealthCheck> {
  return {
    http: { port: 8080, path: '/health', scheme: 'http', statuses: [200, 204], protocol: 'IPv6' },
    delaySeconds: 15,
    intervalSeconds: 10,
    timeoutSeconds: 20,
    consecutiveFailures: 3,
    gracePeriodSeconds: 300,
    command: fullCommand(),
    type: 'HTTP',
    tcp: { port: 8081, protocol: 'IPv4' },
  };
}

export function fullDiscovery(): Full<DiscoveryInfo> {
  return {
    visibility: 'FRAMEWORK',
    name: 'web',
    environment: 'prod',
    location: 'eu',
    version: '1',
    ports: { ports: [{ number: 31000, name: 'http', protocol: 'tcp', visibility: 'CLUSTER', labels: fullLabels() }] },
    labels: fullLabels(),
  };
}

export function fullContainer(): Full<ContainerInfo> {
  return {
    type: 'MESOS',
    volumes: [fullVolume()],
    docker: {
      image: 'nginx:1.25',
      network: 'BRIDGE',
      portMappings: [{ hostPort: 31000, containerPort: 80, protocol: 'tcp' }],
      privileged: false,
      parameters: [{ key: 'label', value: 'x' }],
      forcePullImage: true,
    },
    hostname: 'web-1',
    mesos: { image: { type: 'DOCKER', docker: { name: 'nginx:1.25' }, cached: true } },
    networkInfos: [
      {
        groups: ['g'],
        labels: fullLabels(),
        ipAddresses: [{ protocol: 'IPv4', ipAddress: '10.0.0.1' }],
        name: 'dcos',
        portMappings: [{ hostPort: 31000, containerPort: 80, protocol: 'tcp' }],
      },
    ],
  };
}

export function fullExecutor(): Full<ExecutorInfo> {
  return {
    executorId: { value: 'pod.1' },
    data: bytes(9),
    resources: [fullResource()],
    command: fullCommand(),
    frameworkId: { value: 'F1' },
    name: 'pod',
    container: fullContainer(),
    discovery: fullDiscovery(),
    shutdownGracePeriod: { nanoseconds: 5_000_000_000 },
    labels: fullLabels(),
    type: 'DEFAULT',
  };
}

export function fullTask(): Full<TaskInfo> {
  return {
    name: 'web',
    taskId: { value: 'web.1' },
    agentId: { value: 'A1' },
    resources: [fullResource()],
    executor: fullExecutor(),
    data: bytes(7, 7),
    command: fullCommand(),
    healthCheck: fullHealthCheck(),
    container: fullContainer(),
    labels: fullLabels(),
    discovery: fullDiscovery(),
    killPolicy: { gracePeriod: { nanoseconds: 30_000_000_000 } },
    check: {
      type: 'HTTP', command: { command: fullCommand() }, http: { port: 8080, path: '/ready' },
      delaySeconds: 1.5, intervalSeconds: 2.5, timeoutSeconds: 3.5, tcp: { port: 8081 },
    },
    maxCompletionTime: { nanoseconds: 60_000_000_000 },
  };
}

export function fullFrameworkInfo(): Full<FrameworkInfo> {
  return {
    user: 'nobody',
    name: 'pacer',
    id: { value: 'F1' },
    failoverTimeout: 604800,
    checkpoint: true,
    role: '*',
    hostname: 'pacer.example',
    principal: 'pacer',
    webuiUrl: 'http://pacer.example:8080',
    capabilities: [{ type: 'MULTI_ROLE' }, { type: 'PARTITION_AWARE' }],
    labels: fullLabels(),
    roles: ['apps'],
  };
}

/** A Call with every field of the model set (not a valid Mesos call, a schema probe). */
export function fullCall(): Full<Call> {
  const frameworkId = { value: 'F1' };
  const agentId = { value: 'A1' };
  const taskId = { value: 'web.1' };
  return {
    frameworkId,
    type: 'ACCEPT',
    subscribe: { frameworkInfo: fullFrameworkInfo(), suppressedRoles: ['apps'] },
    accept: {
      offerIds: [{ value: 'O1' }],
      operations: [
        {
          type: 'LAUNCH_GROUP',
          launch: { taskInfos: [fullTask()] },
          reserve: { resources: [fullResource()], source: [fullResource()] },
          unreserve: { resources: [fullResource()] },
          create: { volumes: [fullResource()] },
          destroy: { volumes: [fullResource()] },
          launchGroup: { executor: fullExecutor(), taskGroup: { tasks: [fullTask()] } },
          id: { value: 'op-1' },
        },
      ],
      filters: { refuseSeconds: 0 },
    },
    decline: { offerIds: [{ value: 'O2' }], filters: { refuseSeconds: 120 } },
    kill: { taskId, agentId, killPolicy: { gracePeriod: { nanoseconds: 1 } } },
    shutdown: { executorId: { value: 'pod.1' }, agentId },
    acknowledge: { agentId, taskId, uuid: bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) },
    reconcile: { tasks: [{ taskId, agentId }] },
    revive: { roles: ['apps'] },
    suppress: { roles: ['apps'] },
    updateFramework: { frameworkInfo: fullFrameworkInfo(), suppressedRoles: ['apps'] },
  };
}

export function fullOffer(): Full<Offer> {
  return {
    id: { value: 'O1' },
    frameworkId: { value: 'F1' },
    agentId: { value: 'A1' },
    hostname: 'agent-1',
    resources: [fullResource()],
    executorIds: [{ value: 'pod.1' }],
    attributes: [
      { name: 'rack', type: 'TEXT', text: { value: 'r1' }, scalar: { value: 1 }, ranges: { range: [{ begin: 1, end: 2 }] }, set: { item: ['x'] } },
    ],
    url: { scheme: 'http', address: { hostname: 'agent-1', ip: '10.0.0.2', port: 5051 }, path: '/slave(1)', query: [{ key: 'a', value: 'b' }], fragment: 'f' },
    unavailability: { start: { nanoseconds: 1_795_336_562_780_774_000n }, duration: { nanoseconds: 3_600_000_000_000 } },
    allocationInfo: { role: 'apps' },
    domain: { faultDomain: { region: { name: 'eu' }, zone: { name: 'eu-1a' } } },
  };
}

export function fullStatus(): Full<TaskStatus> {
  return {
    taskId: { value: 'web.1' },
    state: 'TASK_UNREACHABLE',
    data: bytes(1),
    message: 'agent unreachable',
    agentId: { value: 'A1' },
    timestamp: 1795336562.7807739,
    executorId: { value: 'web.1' },
    healthy: false,
    source: 'SOURCE_MASTER',
    reason: 'REASON_AGENT_REMOVED',
    uuid: bytes(0xad, 0xc0, 0x4b, 0xf8, 0x72, 0x25, 0x43, 0x8a, 0xa4, 0x2c, 0xf3, 0xbe, 0xa7, 0xec, 0x01, 0x27),
    labels: fullLabels(),
    containerStatus: {
      networkInfos: [
        {
          groups: ['g'],
          labels: fullLabels(),
          ipAddresses: [{ protocol: 'IPv6', ipAddress: '::1' }],
          name: 'n',
          portMappings: [{ hostPort: 1, containerPort: 2, protocol: 'udp' }],
        },
      ],
      executorPid: 4242,
      // ContainerID nests itself; a two-level chain is as full as it gets.
      containerId: { value: 'c2', parent: { value: 'c1' } } as Full<ContainerID>,
    },
    unreachableTime: { nanoseconds: 1_795_336_562_000_000_000n },
    checkStatus: { type: 'TCP', command: { exitCode: -1 }, http: { statusCode: 503 }, tcp: { succeeded: false } },
    limitation: { resources: [fullResource()] },
  };
}

/** An Event with every field of the model set (not a valid Mesos event, a schema probe). */
export function fullEvent(): Full<Event> {
  return {
    type: 'UPDATE',
    subscribed: {
      frameworkId: { value: 'F1' },
      heartbeatIntervalSeconds: 15,
      masterInfo: {
        id: 'm1',
        ip: 16777343,
        port: 5050,
        pid: 'master@127.0.0.1:5050',
        hostname: 'master-1',
        version: '1.11.0',
        address: { hostname: 'master-1', ip: '127.0.0.1', port: 5050 },
        domain: { faultDomain: { region: { name: 'eu' }, zone: { name: 'eu-1a' } } },
        capabilities: [{ type: 'AGENT_UPDATE' }],
      },
    },
    offers: { offers: [fullOffer()] },
    rescind: { offerId: { value: 'O1' } },
    update: { status: fullStatus() },
    message: { agentId: { value: 'A1' }, executorId: { value: 'E1' }, data: bytes(4, 2) },
    failure: { agentId: { value: 'A1' }, executorId: { value: 'E1' }, status: 256 },
    error: { message: 'Framework failed over' },
  };
}
