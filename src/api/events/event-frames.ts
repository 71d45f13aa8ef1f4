import { sseFrame } from './sse-frame';
import type { WireEvent } from './wire-event';
import { hasPlanRoots, type PlanFormat, wireEventJson } from './wire-event-json';

/**
 * The SSE frames of one event, serialized lazily and at most once per distinct rendering: one
 * frame for every subscriber of an event whose JSON does not depend on the plan format, and at
 * most two (full, light) for the plan events. The same Buffer goes to every socket that wants it.
 */
export class EventFrames {
  private readonly varies: boolean;
  private full: Buffer | undefined;
  private light: Buffer | undefined;

  constructor(private readonly event: WireEvent) {
    this.varies = hasPlanRoots(event);
  }

  /** The frame for a subscriber that asked for `format`. */
  frame(format: PlanFormat): Buffer {
    if (format === 'light' && this.varies) return (this.light ??= sseFrame(wireEventJson(this.event, 'light')));
    return (this.full ??= sseFrame(wireEventJson(this.event, 'full')));
  }
}
