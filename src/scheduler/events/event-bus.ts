import type { MarathonEvent } from '../model/events';

/** A subscriber of the core's events. Called synchronously, in emission order. */
export type EventListener = (event: MarathonEvent) => void;

/**
 * The core's event bus. Delivery is synchronous and in order; a listener that needs to buffer
 * (SSE subscribers) does so itself with its own bound, so the core never blocks or drops.
 */
export class EventBus {
  private listeners: EventListener[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: MarathonEvent): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i](event);
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }
}
