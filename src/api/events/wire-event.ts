/**
 * What the event stream carries: any event with Marathon's `eventType` wire name (the core's
 * MarathonEvent and the API's ApiEvent both qualify). The stream only reads `eventType` (to filter
 * and to name the SSE frame) and serializes the rest as it is.
 */
export interface WireEvent {
  readonly eventType: string;
}
