import type { ServerResponse } from 'node:http';
import type { SubscriberSink } from './subscriber-sink';

/**
 * The raw HTTP response as a subscriber's sink, with `write` answering "the receiver is behind" only
 * on real network backpressure. Node corks the socket for the rest of the tick on every response
 * write, so a burst of events from one core input (a scale to 2000 instances emits ~2000 events at
 * once) would make `write` return false after 16 KiB although nothing was even tried on the
 * socket, and a healthy client would be disconnected after 1024 more. So when `write` returns
 * false, the corked batch is handed to the kernel at once, and the answer is whether the socket's
 * own buffer is still above its high-water mark. Batching stays: frames are flushed per 16 KiB,
 * not one system call per frame.
 */
export function responseSink(res: ServerResponse): SubscriberSink {
  return {
    write(chunk: Buffer): boolean {
      if (res.write(chunk)) return true;
      const socket = res.socket;
      if (socket === null || socket.destroyed) return false;
      if (socket.writableCorked > 0) socket.uncork();
      return socket.writableLength < socket.writableHighWaterMark;
    },
    end: () => void res.end(),
    destroy: () => {
      // Reset (RST), not closed (FIN): a close leaves what the receiver has not taken in the
      // kernel's send buffer, sent on for as long as the kernel keeps trying (minutes for a
      // receiver that reads nothing); a reset discards it at once, as the contract says.
      const socket = res.socket;
      if (socket !== null && !socket.destroyed) socket.resetAndDestroy();
      res.destroy();
    },
    on(event, listener) {
      res.on(event, listener);
      return this;
    },
  };
}
