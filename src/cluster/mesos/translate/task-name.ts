/**
 * The Mesos task name of a run spec's tasks: the id's segments reversed and joined with dots, as
 * a host name reads (`/prod/web` → `web.prod`, `/web` → `web`), which is what Marathon shows in
 * the Mesos UI and service discovery uses as the task's name. Pod tasks are named after their
 * container instead (see pod-launch-group.ts).
 */
export function taskName(runSpecId: string): string {
  return runSpecId.split('/').filter((s) => s !== '').reverse().join('.');
}
