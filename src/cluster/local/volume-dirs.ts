import { rmSync, symlinkSync } from 'node:fs';
import { makeDirs } from '../../runtime/make-dirs';
import { join } from 'node:path';
import type { PersistentVolume } from '../../scheduler/model/reservation';

/**
 * Persistent volumes on the local cluster: one directory per volume,
 * `<sandboxRoot>/volumes/<agentId>/<persistenceId>`, made on CREATE and removed on DESTROY. It
 * outlives the sandboxes of the instance's tasks (each relaunch gets a new sandbox); a task sees
 * it as a symbolic link `<sandbox>/<containerPath>` made before its process starts.
 */
export function volumeDir(sandboxRoot: string, agentId: string, persistenceId: string): string {
  return join(sandboxRoot, 'volumes', safe(agentId), safe(persistenceId));
}

/** CREATE: make the volumes' directories (an existing one keeps its data). */
export function createVolumeDirs(sandboxRoot: string, agentId: string, volumes: readonly PersistentVolume[]): void {
  for (const v of volumes) makeDirs(volumeDir(sandboxRoot, agentId, v.persistenceId));
}

/** DESTROY: the volumes' data goes. */
export function destroyVolumeDirs(sandboxRoot: string, agentId: string, volumes: readonly PersistentVolume[]): void {
  for (const v of volumes) rmSync(volumeDir(sandboxRoot, agentId, v.persistenceId), { recursive: true, force: true });
}

/**
 * Link each volume into a task's sandbox at its `containerPath` (relative to the sandbox; a
 * leading `/` is dropped, and a path with a `.` or `..` segment, or that names the sandbox itself,
 * is not linked: `.` would have replaced the sandbox, and the failed removal stopped pacer).
 */
export function mountVolumes(sandboxRoot: string, agentId: string, sandbox: string, volumes: readonly PersistentVolume[]): void {
  if (volumes.length === 0) return;
  makeDirs(sandbox);
  for (const v of volumes) {
    const path = v.containerPath.replace(/^\/+/, '');
    const segments = path.split('/').filter((s) => s !== '');
    if (segments.length === 0 || segments.some((s) => s === '.' || s === '..')) continue;
    const target = volumeDir(sandboxRoot, agentId, v.persistenceId);
    makeDirs(target);
    const link = join(sandbox, path);
    makeDirs(join(link, '..'));
    rmSync(link, { force: true });
    symlinkSync(target, link, 'dir');
  }
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}
