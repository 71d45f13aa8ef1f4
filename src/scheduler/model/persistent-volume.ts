/**
 * A persistent volume of a resident instance, created on its reservation's disk (Mesos
 * `Resource.disk.persistence`). `persistenceId` is unique on the agent; `containerPath` is where
 * the task sees it (an app's `container.volumes[].containerPath`, a pod's volume name).
 */
export interface PersistentVolume {
  readonly persistenceId: string;
  readonly containerPath: string;
  readonly diskMilli: number;
}
