import type { ApiDeps } from '../api-deps';
import { subscribeToCore } from '../subscribe-to-core';
import { instanceIdOfTask, servicePortsOf } from '../../scheduler/index';
import type { MarathonEvent } from '../../scheduler/model/events';
import type { RunSpec } from '../../scheduler/model/run-spec';
import { taskText } from './task-json';

/**
 * Renders a task's JSON text ({@link taskText}, kept per task) as soon as the core reports it
 * Running (`status_update_event` TASK_RUNNING, the state a task stays in), instead of at the next
 * `GET /v2/tasks`: a deployment of 100,000 tasks no longer leaves 100,000 renderings (0.5–1 s of
 * CPU) to the first read after it, which then checks the kept texts and encodes them (issue 13:
 * ≤ 500 ms). Not at the states a task passes through (Staging, Starting, Killing): rendering those
 * too, three renderings a task on the status path, cost 13–17 % of the CPU of the bench's
 * deployment of 100,000 tasks, for texts that were gone before any read; the lists' pass
 * (v2/lists-ahead.ts) renders what is left once an app's statuses pause. About 5 µs a task, in
 * the listener, while the core is delivering the update's events; the read still checks every
 * text it answers against the task as it is then (task-json.ts `sameTaskInputs`), so a text
 * rendered here can never be answered stale. Never throws into the core: a failure here only
 * leaves the rendering to the read.
 *
 * Returns the unsubscribe function.
 */
export function renderTaskTextsAhead(deps: ApiDeps): () => void {
  const portsTexts = new WeakMap<RunSpec, string>();
  return subscribeToCore(deps, (event: MarathonEvent) => {
    if (event.eventType !== 'status_update_event' || event.taskStatus !== 'TASK_RUNNING') return;
    try {
      const instance = deps.scheduler.instance(instanceIdOfTask(event.taskId));
      if (instance === undefined || instance.kind !== 'app') return;
      const task = instance.tasks.find((t) => t.taskId === event.taskId);
      const spec = deps.scheduler.runSpec(instance.runSpecId);
      if (task === undefined || spec === undefined || spec.kind !== 'app') return;
      let portsText = portsTexts.get(spec);
      if (portsText === undefined) {
        portsText = JSON.stringify(servicePortsOf(spec));
        portsTexts.set(spec, portsText);
      }
      taskText(deps, instance, task, portsText);
    } catch {
      // The read renders it.
    }
  });
}
