import * as http from 'node:http';
import * as https from 'node:https';
import { decodeEvent } from '../codec/mesos-codec';
import type { Event, MesosFormat } from '../codec/mesos-model';
import { formatOfMediaType, MEDIA_TYPES, mediaTypeOf } from '../codec/media-type';
import { RecordIoParser } from '../recordio/record-io-parser';
import { BoundedText } from './bounded-text';
import { SCHEDULER_PATH } from './leader-url';
import { oneLine } from './one-line';

/**
 * What a SUBSCRIBE request reports. After `opened`, any number of `event`s; then exactly one of
 * `redirected`, `refused` or `closed` ends it — unless the owner called `close()` first, after
 * which nothing is reported at all.
 */
export interface SubscriptionHandlers {
  /** 200 with a stream id: the body is streaming (§1.3 item 2). */
  opened(streamId: string): void;
  /** One decoded record (§1.4). */
  event(event: Event): void;
  /** 307 from a master that is not the leader (§1.6, §1.9), with its raw `Location`. */
  redirected(location: string | undefined): void;
  /** Any other non-200 answer (§1.6); `body` is the master's plain-text message. */
  refused(status: number, body: string): void;
  /**
   * An answer no Mesos master gives (see {@link foreignError}): the URL names some other HTTP
   * service. `contentType` is the answer's header as sent (undefined when absent).
   */
  foreign(status: number, contentType: string | undefined): void;
  /** The stream or the connection ended: EOF, reset, refused, or a malformed record. */
  closed(reason: string): void;
}

/** One SUBSCRIBE attempt. */
export interface SubscriptionRequest {
  readonly baseUrl: string;
  readonly body: Uint8Array;
  /** Body format and requested event format: `Accept` names only this type (§1.2, JSON wins otherwise). */
  readonly format: MesosFormat;
  /** `Authorization` (HTTP basic with the framework's principal and secret, §1.1), when it authenticates. */
  readonly authorization?: string;
}

/** A SUBSCRIBE in progress; `close()` aborts it silently. */
export interface Subscription {
  close(): void;
}

/**
 * Opens the streaming SUBSCRIBE (mesos-v1-scheduler-api.md §1.3) on a dedicated connection (no
 * agent, so no call ever shares its socket) without a `Mesos-Stream-Id` (§1.3 item 1: that is a
 * 400). The body is framed with RecordIO on bytes (§1.4) and each record decoded in the format
 * the response's Content-Type names; a malformed frame or record, or an unexpected Content-Type,
 * closes the stream with `closed` (fatal stream errors, §1.4 / §9: resubscribe). No response
 * timeout: liveness is the owner's heartbeat watchdog (§1.7, §1.10).
 */
export function openSubscription(req: SubscriptionRequest, handlers: SubscriptionHandlers): Subscription {
  let done = false;
  const finish = (report: () => void): void => {
    if (done) return;
    done = true;
    request.destroy();
    report();
  };
  const url = new URL(`${req.baseUrl}${SCHEDULER_PATH}`);
  const transport = url.protocol === 'https:' ? https : http;
  const request = transport.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      'Content-Type': MEDIA_TYPES[req.format], Accept: MEDIA_TYPES[req.format], 'Content-Length': String(req.body.byteLength),
      ...(req.authorization === undefined ? {} : { Authorization: req.authorization }),
    },
  }, (res) => onResponse(res, handlers, finish, () => done));
  request.on('error', (err) => finish(() => handlers.closed(`connection failed: ${oneLine(err.message)}`)));
  request.end(req.body);
  return { close: () => { done = true; request.destroy(); } };
}

function onResponse(
  res: http.IncomingMessage,
  handlers: SubscriptionHandlers,
  finish: (report: () => void) => void,
  isDone: () => boolean,
): void {
  const status = res.statusCode ?? 0;
  const contentType = res.headers['content-type'];
  if (status !== 200) {
    if (foreignError(status, contentType)) finish(() => handlers.foreign(status, contentType));
    else collectText(res, (body) => finish(() => (status === 307 ? handlers.redirected(locationOf(res)) : handlers.refused(status, body))));
    return;
  }
  const streamId = res.headers['mesos-stream-id'];
  const format = formatOfMediaType(contentType);
  if (typeof streamId !== 'string' || streamId === '' || format === undefined) {
    finish(() => handlers.foreign(status, contentType));
    return;
  }
  handlers.opened(streamId);
  const parser = new RecordIoParser();
  res.on('data', (chunk: Buffer) => {
    try {
      for (const record of parser.push(chunk)) {
        if (isDone()) return;
        handlers.event(decodeEvent(record, format));
      }
    } catch (err) {
      finish(() => handlers.closed(`malformed event stream: ${(err as Error).message}`));
    }
  });
  res.on('error', (err) => finish(() => handlers.closed(`stream error: ${err.message}`)));
  res.on('aborted', () => finish(() => handlers.closed('stream aborted')));
  res.on('end', () => finish(() => handlers.closed('the master ended the stream')));
}

function locationOf(res: http.IncomingMessage): string | undefined {
  const location = res.headers.location;
  return typeof location === 'string' ? location : undefined;
}

/** The body of a refused SUBSCRIBE as text, at most `MAX_ANSWER_BODY_BYTES` of it kept ({@link BoundedText}). */
function collectText(res: http.IncomingMessage, done: (body: string) => void): void {
  const body = new BoundedText();
  res.on('data', (chunk: Buffer) => body.push(chunk));
  res.on('error', () => done(body.text()));
  res.on('end', () => done(body.text()));
}

/**
 * Whether an error answer to SUBSCRIBE is one no Mesos master gives, so the URL names some other
 * HTTP service (a web server, a proxy's error page, another API): a master's errors are
 * `text/plain` messages or empty (§1.6), so a body of another type is foreign. A 307 and a 401
 * keep their own meaning. (A 200 is foreign without a `Mesos-Stream-Id` or the record type asked
 * for, which a master always sends, §1.3 item 2: checked by the caller.)
 */
export function foreignError(status: number, contentType: string | undefined): boolean {
  if (status === 307 || status === 401 || contentType === undefined) return false;
  return mediaTypeOf(contentType) !== 'text/plain';
}
