/** Linux-specific settings of a container (Marathon's `linux.raml` `LinuxInfo`), as given. */
export interface LinuxInfo {
  readonly seccomp?: {
    /** A profile file on the agent. */
    readonly profileName?: string;
    /** `true`: no seccomp filter. */
    readonly unconfined?: boolean;
  };
  readonly ipcInfo?: {
    readonly mode: 'PRIVATE' | 'SHARE_PARENT';
    /** Size of the shared memory in MiB. */
    readonly shmSize?: number;
  };
}
