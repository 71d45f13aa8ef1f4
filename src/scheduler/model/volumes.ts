/** How a container sees a volume: read-only or read-write. */
export type ReadMode = 'RO' | 'RW';

/**
 * A local persistent volume (Marathon's `volumes.raml` `PersistentVolumeInfo`): disk reserved on
 * the agent that outlives the task; a run spec with one is resident.
 */
export interface PersistentVolumeInfo {
  /** The Mesos disk kind; absent: `root` (or `mount` with a profile). */
  readonly type?: 'root' | 'path' | 'mount';
  /** Size in MiB. */
  readonly size: number;
  /** For `mount` disks, the largest disk to consider, in MiB. */
  readonly maxSize?: number;
  readonly profileName?: string;
  /** Where the volume may be created (`[["path", "LIKE", "…"]]`); empty when unconstrained. */
  readonly constraints: readonly (readonly string[])[];
}

/**
 * An external volume (Marathon's `volumes.raml` `ExternalVolumeInfo`), kept as given: pacer does
 * not mount external volumes itself. A DVDI volume, or a CSI one (`provider: "csi"`).
 */
export type ExternalVolumeInfo = DvdiVolumeInfo | CsiVolumeInfo;

/** A Docker volume driver (DVDI) volume. */
export interface DvdiVolumeInfo {
  readonly kind: 'dvdi';
  readonly provider?: string;
  readonly name?: string;
  /** Size in GiB. */
  readonly size?: number;
  /** Driver options; `{}` when none. */
  readonly options: Readonly<Record<string, string>>;
  /** Shared between tasks. */
  readonly shared?: boolean;
}

/** A CSI volume: the plugin, the access capability and the secrets the plugin needs. */
export interface CsiVolumeInfo {
  /** Written as `provider: "csi"`. */
  readonly kind: 'csi';
  readonly name: string;
  readonly options: {
    readonly pluginName: string;
    readonly capability: {
      readonly accessMode: string;
      readonly accessType: string;
      readonly fsType?: string;
      readonly mountFlags: readonly string[];
    };
    readonly nodeStageSecret: Readonly<Record<string, string>>;
    readonly nodePublishSecret: Readonly<Record<string, string>>;
    readonly volumeContext: Readonly<Record<string, string>>;
  };
}

/** An app volume (`container.volumes[]`): a host path, a persistent volume, an external volume or a secret. */
export type AppVolume = AppHostVolume | AppPersistentVolume | AppExternalVolume | AppSecretVolume;

/** A directory of the agent mounted into the container. */
export interface AppHostVolume {
  readonly kind: 'host';
  readonly containerPath: string;
  readonly hostPath: string;
  /** Absent when not given (read-write). */
  readonly mode?: ReadMode;
}

export interface AppPersistentVolume {
  readonly kind: 'persistent';
  readonly containerPath: string;
  readonly persistent: PersistentVolumeInfo;
  readonly mode?: ReadMode;
}

export interface AppExternalVolume {
  readonly kind: 'external';
  readonly containerPath: string;
  readonly external: ExternalVolumeInfo;
  readonly mode?: ReadMode;
}

/** A secret (by its name in `secrets`) made available as a file at `containerPath`. */
export interface AppSecretVolume {
  readonly kind: 'secret';
  readonly containerPath: string;
  readonly secret: string;
}

/**
 * A pod volume (`volumes[]`), named so that containers can mount it: an ephemeral directory of the
 * executor's sandbox shared by the containers, a host path (absolute) or a sandbox directory
 * (relative), a persistent volume, or a secret.
 */
export type PodVolume = PodEphemeralVolume | PodHostVolume | PodPersistentVolume | PodSecretVolume;

export interface PodEphemeralVolume {
  readonly kind: 'ephemeral';
  readonly name: string;
}

export interface PodHostVolume {
  readonly kind: 'host';
  readonly name: string;
  /** Absolute: a path of the agent; relative: a directory of the executor's sandbox. */
  readonly host: string;
}

export interface PodPersistentVolume {
  readonly kind: 'persistent';
  readonly name: string;
  readonly persistent: PersistentVolumeInfo;
}

export interface PodSecretVolume {
  readonly kind: 'secret';
  readonly name: string;
  readonly secret: string;
}

/** Where a pod container mounts one of the pod's volumes (`volumeMounts[]`). */
export interface VolumeMount {
  /** The name of a volume of the pod. */
  readonly name: string;
  readonly mountPath: string;
  /** Absent when not given (read-write). */
  readonly readOnly?: boolean;
}
