import { EventEmitter } from 'node:events';
import type { SubscriberSink } from '../../../src/api/events/subscriber-sink';
import { parseSse, type ParsedSse } from './sse-parse';

/**
 * A subscriber's socket under the test's control: `accepting` is what `write` answers (false =
 * backpressure), `drain()` lets it catch up, `hangUp()` is the client going away. Everything
 * written is kept, and writes after `end`/`destroy` are counted (they must not happen).
 */
export class FakeSink extends EventEmitter implements SubscriberSink {
  readonly chunks: Buffer[] = [];
  accepting = true;
  ended = false;
  destroyed = false;
  writesAfterClose = 0;

  write(chunk: Buffer): boolean {
    if (this.ended || this.destroyed) this.writesAfterClose++;
    else this.chunks.push(chunk);
    return this.accepting;
  }

  end(): void {
    this.ended = true;
  }

  destroy(): void {
    this.destroyed = true;
  }

  /** The receiver took everything: writes are accepted again and `drain` fires. */
  drain(): void {
    this.accepting = true;
    this.emit('drain');
  }

  /** The client disconnects. */
  hangUp(): void {
    this.emit('close');
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  parsed(): ParsedSse {
    return parseSse(this.text());
  }
}
