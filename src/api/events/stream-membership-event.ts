import { isoTime } from '../../scheduler/index';

/** The events that announce a client joining or leaving the stream. */
export type StreamMembershipType = 'event_stream_attached' | 'event_stream_detached';

/** `event_stream_attached` / `event_stream_detached` on the wire. */
export interface StreamMembershipEvent {
  readonly remoteAddress: string;
  readonly eventType: StreamMembershipType;
  readonly timestamp: string;
}

/**
 * Builds the attach/detach event of one client: `{remoteAddress, eventType, timestamp}` (fact 103;
 * the spec's `clientIp`/`callbackUrl` belong to the removed HTTP callbacks, and the spec itself says
 * the stream's message carries `remoteAddress`). The timestamp is the clock's, ISO with ms and `Z`.
 */
export function streamMembershipEvent(
  eventType: StreamMembershipType,
  remoteAddress: string,
  nowMs: number,
): StreamMembershipEvent {
  return { remoteAddress, eventType, timestamp: isoTime(nowMs) };
}
