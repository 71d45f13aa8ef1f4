import t from 'tap';
import type { ConvertError } from '../../../../src/marathon/convert/convert-result';
import { appErrors, CTX, makeAppJson, makePodJson, podErrors } from './fixtures/builders';

/*
 * Marathon's rules for what an app or pod refers to outside itself, which pacer accepted without
 * them (a 201 where Marathon answers 422): a `docker.pullConfig` and a secret volume name one of
 * the definition's secrets (AppValidation.mesosDockerContainerValidator / validVolume,
 * PodsValidation.imageValidator / secretVolumesValidator); a Docker container has no pullConfig;
 * an external volume follows its provider's rules (AppValidation.validVolume,
 * DVDIProvider.ramlVolume). A stored record is read without them: it loads as it was accepted.
 */

const DRIVER = { 'dvdi/driver': 'rexray' };
const dvdi = (external: Record<string, unknown>, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  containerPath: 'data', mode: 'RW', external: { name: 'v', provider: 'dvdi', options: DRIVER, ...external }, ...over,
});
const mesosVolumes = (...volumes: unknown[]) => makeAppJson({ container: { type: 'MESOS', volumes } });
const dockerVolumes = (...volumes: unknown[]) => makeAppJson({ container: { type: 'DOCKER', docker: { image: 'busybox' }, volumes } });
const SECRETS = { s: { source: '/vault/s' } };
const pullConfig = (type: string, secret: string, secrets?: unknown) =>
  makeAppJson({ ...(secrets === undefined ? {} : { secrets }), container: { type, docker: { image: 'busybox', pullConfig: { secret } } } });
const LABEL = "must match regular expression '^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$'";
const KEY = "must match regular expression '^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?/[A-Za-z0-9](?:[-A-Za-z0-9\\._:]*[A-Za-z0-9])?$'";
const V0 = '/container/volumes/0';
const DRIVER_AT = `${V0}/external/options("dvdi~1driver")`;

interface Case {
  readonly name: string;
  readonly kind?: 'app' | 'pod';
  readonly json: unknown;
  /** Marathon's details (JSON pointers); [] when Marathon accepts it. */
  readonly errors: readonly ConvertError[];
}

const cases: readonly Case[] = [
  // pullConfig
  { name: 'Mesos container pullConfig naming a declared secret', json: pullConfig('MESOS', 's', SECRETS), errors: [] },
  {
    name: 'Mesos container pullConfig naming no secret', json: pullConfig('MESOS', 'nope', SECRETS),
    errors: [{ path: '/container/docker/pullConfig', errors: ['pullConfig.secret must refer to an existing secret'] }],
  },
  {
    name: 'Mesos container pullConfig without secrets', json: pullConfig('MESOS', 's'),
    errors: [{ path: '/container/docker/pullConfig', errors: ['pullConfig.secret must refer to an existing secret'] }],
  },
  {
    name: 'Docker container pullConfig', json: pullConfig('DOCKER', 's', SECRETS),
    errors: [{ path: '/container/docker/pullConfig', errors: ['pullConfig is not supported with Docker containerizer'] }],
  },
  {
    name: 'pod image pullConfig naming no secret', kind: 'pod',
    json: makePodJson({ secrets: SECRETS }, { image: { kind: 'DOCKER', id: 'busybox', pullConfig: { secret: 'nope' } } }),
    errors: [{ path: '/containers/0/image/pullConfig', errors: ['pullConfig.secret must refer to an existing secret'] }],
  },
  {
    name: 'pod image pullConfig naming a declared secret', kind: 'pod',
    json: makePodJson({ secrets: SECRETS }, { image: { kind: 'DOCKER', id: 'busybox', pullConfig: { secret: 's' } } }), errors: [],
  },
  // secret volumes
  {
    name: 'app secret volume naming no secret', json: makeAppJson({ secrets: SECRETS, container: { type: 'MESOS', volumes: [{ containerPath: 'pw', secret: 'nope' }] } }),
    errors: [{ path: V0, errors: ['volume.secret must refer to an existing secret'] }],
  },
  { name: 'app secret volume naming a declared secret', json: makeAppJson({ secrets: SECRETS, container: { type: 'MESOS', volumes: [{ containerPath: 'pw', secret: 's' }] } }), errors: [] },
  {
    name: 'pod secret volume naming no secret', kind: 'pod',
    json: makePodJson({ secrets: SECRETS, volumes: [{ name: 'a', secret: 's' }, { name: 'b', secret: 'nope' }] }, { volumeMounts: [{ name: 'a', mountPath: '/a' }, { name: 'b', mountPath: '/b' }] }),
    errors: [
      { path: '/podSecretVolumes(pod)', errors: ['must be empty'] },
      { path: '/podSecretVolumes(pod)/1/secret', errors: ['volume.secret must refer to an existing secret'] },
    ],
  },
  // DVDI volumes
  { name: 'DVDI volume of a Mesos container', json: mesosVolumes(dvdi({ size: 10 })), errors: [] },
  { name: 'DVDI volume of a Docker container at an absolute path', json: dockerVolumes(dvdi({}, { containerPath: '/var/data' })), errors: [] },
  { name: 'DVDI volume with rexray options', json: mesosVolumes(dvdi({ options: { ...DRIVER, 'dvdi/volumetype': 'io1', 'dvdi/iops': '100', 'dvdi/overwritefs': 'TRUE' } })), errors: [] },
  { name: 'DVDI volume of another driver, its options unchecked', json: mesosVolumes(dvdi({ options: { 'dvdi/driver': 'pxd', 'dvdi/iops': 'x' } })), errors: [] },
  {
    name: 'external volume of an unknown provider', json: mesosVolumes(dvdi({ provider: 'acme' })),
    errors: [{ path: `${V0}/external/provider`, errors: ['is unknown provider'] }],
  },
  {
    name: 'external volume without name or provider', json: mesosVolumes({ containerPath: 'data', mode: 'RW', external: { size: 10 } }),
    errors: [{ path: `${V0}/external/name`, errors: ['must not be empty'] }, { path: `${V0}/external/provider`, errors: ['not defined'] }],
  },
  {
    name: 'DVDI volume with an empty name', json: mesosVolumes(dvdi({ name: '' })),
    errors: [{ path: `${V0}/external/name`, errors: ['must not be empty'] }],
  },
  {
    name: 'DVDI volume without a name', json: mesosVolumes(dvdi({ name: undefined })),
    errors: [{ path: `${V0}/external/name`, errors: ['must not be empty', 'not defined'] }],
  },
  {
    name: 'external volume provider not a label', json: mesosVolumes(dvdi({ provider: 'DVDI' })),
    errors: [{ path: `${V0}/external/provider`, errors: [LABEL, 'is unknown provider'] }],
  },
  {
    name: 'DVDI volume without a driver', json: mesosVolumes(dvdi({ options: {} })),
    errors: [{ path: DRIVER_AT, errors: ['not defined'] }],
  },
  {
    name: 'DVDI volume with a driver that is not a label', json: mesosVolumes(dvdi({ options: { 'dvdi/driver': 'Rex Ray' } })),
    errors: [{ path: DRIVER_AT, errors: [LABEL] }],
  },
  {
    name: 'DVDI volume with an option key outside <label>/<name>', json: mesosVolumes(dvdi({ options: { ...DRIVER, driver: 'x' } })),
    errors: [{ path: `${V0}/external/options/keys/1`, errors: [KEY] }],
  },
  {
    name: 'rexray volume with bad options',
    json: mesosVolumes(dvdi({ options: { ...DRIVER, 'dvdi/volumetype': 'io1 ', 'dvdi/newfstype': '', 'dvdi/iops': '0', 'dvdi/overwritefs': 'false' } })),
    errors: [
      { path: `${V0}/external/options/"dvdi~1volumetype"`, errors: [LABEL] },
      { path: `${V0}/external/options/"dvdi~1newfstype"`, errors: [LABEL] },
      { path: `${V0}/external/options/"dvdi~1iops"`, errors: ['Expected a valid, positive integer instead of 0'] },
      { path: `${V0}/external/options/"dvdi~1overwritefs"`, errors: ['Expected a valid boolean'] },
    ],
  },
  {
    name: 'DVDI volume of a Mesos container read-only', json: mesosVolumes(dvdi({}, { mode: 'RO' })),
    errors: [{ path: `${V0}/mode`, errors: ['does not equal RW'] }],
  },
  {
    name: 'DVDI volume at containerPath .', json: mesosVolumes(dvdi({}, { containerPath: '.' })),
    errors: [{ path: `${V0}/containerPath`, errors: ['can not be one of (.,..)'] }],
  },
  {
    name: 'DVDI volume of a Docker container with a size and other options',
    json: dockerVolumes(dvdi({ size: 42, options: { ...DRIVER, 'dvdi/iops': '10' } }, { containerPath: '..' })),
    errors: [
      { path: `${V0}/containerPath`, errors: ['can not be one of (.,..)'] },
      { path: `${V0}/external/options`, errors: ['must only contain dvdi/driver'] },
      { path: `${V0}/external/size`, errors: ['must be undefined for Docker containers'] },
    ],
  },
  {
    name: 'two external volumes of one name', json: mesosVolumes(dvdi({ shared: true }), dvdi({ shared: true }, { containerPath: 'more' })),
    errors: [{ path: '/container/volumes', errors: ['Volume names must be unique'] }],
  },
  {
    name: 'a CSI volume has none of the DVDI rules',
    json: mesosVolumes({ containerPath: '.', mode: 'RO', external: { name: 'c', provider: 'csi', options: { pluginName: 'p', capability: { accessMode: 'SINGLE_NODE_WRITER', accessType: 'mount' } } } }),
    errors: [],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const errors = c.kind === 'pod' ? podErrors(c.json) : appErrors(c.json);
    t.strictSame(errors, c.errors);
    // A stored record is read as it was accepted: none of these rules refuses it.
    const stored = c.kind === 'pod' ? podErrors(c.json, { ...CTX, storedRecord: true }) : appErrors(c.json, { ...CTX, storedRecord: true });
    t.strictSame(stored, [], 'a stored record loads');
  });
}
