import { Scheduler } from '../../src/scheduler/scheduler';
import type { FlightRecorder, RingDump } from '../../src/runtime/recording/flight-recorder';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import type { StoredState } from '../../src/scheduler/ports/store';
import { replayPorts } from '../../sim/replay/replay-ports';

/** A core recorded by `recorder` on ports that do nothing (its store holding `stored`), fed `inputs` one second apart. */
export function recordInputs(recorder: FlightRecorder, inputs: readonly SchedulerInput[], stored: StoredState = { runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] }): void {
  let nowMs = 1_000_000;
  const core = new Scheduler(recorder.wrap(replayPorts({ nowMs: () => nowMs }, Array.from({ length: 1000 }, (_, i) => (i * 0.618) % 1), stored)));
  recorder.attach(core);
  for (const input of inputs) {
    nowMs += 1000;
    recorder.beforeInput(nowMs, input);
    core.handle(input);
    recorder.afterInput();
  }
}

/** The ring's dump; the recorders here keep a ring. */
export function dumped(recorder: FlightRecorder, dir: string): RingDump {
  const dump = recorder.dump(dir);
  if (dump === undefined) throw new Error('this recorder keeps no ring');
  return dump;
}

