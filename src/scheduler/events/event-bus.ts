import type { MarathonEvent } from '../model/events';
import type { InstanceAtEvent } from '../model/instance';

/**
 * A subscriber of the core's events. Called synchronously, in emission order; an
 * `instance_changed_event` comes with its instance's goal and kill reason as decided
 * ({@link InstanceAtEvent}).
 */
export type EventListener = (event: MarathonEvent, instance?: InstanceAtEvent) => void;

/** Where the core's events go: what the layers above the instance tracker emit to. */
export interface EventSink {
  emit(event: MarathonEvent, instance?: InstanceAtEvent): void;
  readonly hasListeners: boolean;
}

/**
 * The core's event bus. Delivery is synchronous and in order; a listener that needs to buffer
 * (SSE subscribers) does so itself with its own bound, so the core never blocks or drops.
 */
export class EventBus implements EventSink {
  private listeners: EventListener[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: MarathonEvent, instance?: InstanceAtEvent): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i](event, instance);
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }
}
