import * as http from 'node:http';
import * as https from 'node:https';
import { BoundedText } from './bounded-text';
import { SCHEDULER_PATH } from './leader-url';
import { oneLine } from './one-line';

/** How a non-SUBSCRIBE call went: an HTTP answer, or a network fault (never thrown). */
export type CallAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly location?: string; readonly body: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly aborted?: true };

/** One request to `/api/v1/scheduler` (everything but SUBSCRIBE). */
export interface CallRequest {
  /** `http(s)://host:port` of the master. */
  readonly baseUrl: string;
  readonly body: Uint8Array;
  /** Exactly `application/x-protobuf` or `application/json` (§1.2: no charset, or 415). */
  readonly contentType: string;
  /** The subscription's `Mesos-Stream-Id` (§1.5: required on every non-SUBSCRIBE call). */
  readonly streamId: string;
  /** Give up when the whole answer has not come within this long (§1.7 suggests ≈75 s). */
  readonly timeoutMs: number;
  /** Keep-alive agents for calls, never the streaming socket (§1.3 item 5). */
  readonly agents: { readonly http: http.Agent; readonly https: https.Agent };
  /** `Authorization` (HTTP basic with the framework's principal and secret, §1.1), when it authenticates. */
  readonly authorization?: string;
  /** Gives the call up at once when aborted (its subscription was lost): it then fails as `aborted`. */
  readonly signal?: AbortSignal;
}

/**
 * POSTs one call and resolves with the master's answer: status, `Location` (for 307) and the
 * body as text (error bodies are plain text, §1.6; 202 bodies are empty; at most
 * `MAX_ANSWER_BODY_BYTES` of it kept, {@link BoundedText}). Network faults
 * (refused, reset, timeout) and an abort through `signal` resolve as `failed` (an abort marked
 * `aborted`): the promise never rejects, so a fault cannot escape as an exception.
 */
export function postCall(req: CallRequest): Promise<CallAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    const deadline: { timer?: NodeJS.Timeout } = {};
    const settle = (answer: CallAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline.timer);
      resolve(answer);
    };
    const url = new URL(`${req.baseUrl}${SCHEDULER_PATH}`);
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? req.agents.https : req.agents.http;
    const request = transport.request(url, {
      method: 'POST',
      agent,
      headers: {
        'Content-Type': req.contentType,
        Accept: req.contentType,
        'Content-Length': String(req.body.byteLength),
        'Mesos-Stream-Id': req.streamId,
        ...(req.authorization === undefined ? {} : { Authorization: req.authorization }),
      },
    }, (res) => {
      const body = new BoundedText();
      res.on('data', (chunk: Buffer) => body.push(chunk));
      res.on('error', (err) => settle({ kind: 'failed', reason: oneLine(err.message) }));
      res.on('end', () => settle({
        kind: 'answered',
        status: res.statusCode ?? 0,
        ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
        body: body.text(),
      }));
    });
    // A deadline for the whole call, not the socket's idle timeout: a master that drips its answer
    // (or its headers) would otherwise hold the call, its place and its order keys for ever.
    deadline.timer = setTimeout(() => {
      settle({ kind: 'failed', reason: `no answer within ${req.timeoutMs} ms` });
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err) => settle({ kind: 'failed', reason: oneLine(err.message) }));
    const abort = (): void => {
      settle({ kind: 'failed', reason: 'given up: its subscription was lost', aborted: true });
      request.destroy();
    };
    if (req.signal?.aborted === true) {
      abort();
      return;
    }
    req.signal?.addEventListener('abort', abort, { once: true });
    request.on('close', () => req.signal?.removeEventListener('abort', abort));
    request.end(req.body);
  });
}
