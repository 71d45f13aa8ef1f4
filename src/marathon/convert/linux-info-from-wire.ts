import type { LinuxInfo } from '../../scheduler/model/linux-info';
import type { WireObject } from './wire-object';

const IPC_MODES = ['PRIVATE', 'SHARE_PARENT'] as const;

/** Reads `holder.linuxInfo` (Marathon's `LinuxInfo`: `seccomp`, `ipcInfo`); undefined when absent. */
export function linuxInfoFromWire(holder: WireObject): LinuxInfo | undefined {
  const info = holder.child('linuxInfo');
  if (info === undefined) return undefined;
  const seccomp = info.child('seccomp');
  const ipc = info.child('ipcInfo');
  const profileName = seccomp?.optionalString('profileName');
  const unconfined = seccomp?.optionalBoolean('unconfined');
  return {
    ...(seccomp === undefined ? {} : {
      seccomp: { ...(profileName === undefined ? {} : { profileName }), ...(unconfined === undefined ? {} : { unconfined }) },
    }),
    ...(ipc === undefined ? {} : { ipcInfo: ipcInfoOf(ipc) }),
  };
}

function ipcInfoOf(ipc: WireObject): NonNullable<LinuxInfo['ipcInfo']> {
  const given = ipc.requiredString('mode');
  const mode = IPC_MODES.find((m) => m === given);
  if (given !== undefined && mode === undefined) ipc.fail('mode', `mode must be one of ${IPC_MODES.join(', ')}`);
  const shmSize = ipc.optionalNumber('shmSize', { min: 0, integer: true });
  return { mode: mode ?? 'PRIVATE', ...(shmSize === undefined ? {} : { shmSize }) };
}
