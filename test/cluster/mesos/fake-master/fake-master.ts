import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decodeCall, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Call, CallType, Event, MesosFormat } from '../../../../src/cluster/mesos/codec/mesos-model';
import { formatOfMediaType, MEDIA_TYPES } from '../../../../src/cluster/mesos/codec/media-type';
import { encodeRecord } from '../../../../src/cluster/mesos/recordio/encode-record';
import { FakeExecutors } from './fake-executors';
import { waitUntil } from './wait-until';
import { PATIENCE_MS } from '../../../harness/wait';

/** One request the fake master received, decoded, with the headers tests assert on. */
export interface ReceivedCall {
  readonly call: Call;
  readonly format: MesosFormat;
  readonly streamId?: string;
  readonly accept?: string;
  /** The `Authorization` header sent, if any. */
  readonly authorization?: string;
  /** The HTTP status the fake master answered. */
  readonly status: number;
}

/** A scripted answer to a request instead of the normal behaviour. */
export interface ScriptedAnswer {
  /** Close the connection without answering (the caller sees a network fault); `status` is then only recorded. */
  readonly drop?: boolean;
  readonly status: number;
  readonly location?: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The realm of the master's scheduler endpoint (mesos-v1-scheduler-api.md §1.1). */
export const SCHEDULER_REALM = 'mesos-master-scheduler';

/** What happens when a SUBSCRIBE is accepted (tests change it between steps). */
export interface SubscribeBehaviour {
  /** Send SUBSCRIBED + one HEARTBEAT right away (default true, as a real master does, §1.3). */
  autoSubscribed: boolean;
  /** `heartbeat_interval_seconds` in SUBSCRIBED (default 15). */
  heartbeatIntervalSeconds: number;
  /** The framework id given to a first subscription (default `<uuid>-0000`). */
  newFrameworkId: () => string;
}

/** The open SUBSCRIBE stream. */
interface OpenStream {
  readonly streamId: string;
  readonly format: MesosFormat;
  readonly res: http.ServerResponse;
  readonly frameworkId: string;
}

/**
 * A fake Mesos master for driver tests: `POST /api/v1/scheduler` on 127.0.0.1 (port 0), speaking
 * the real wire format — binary protobuf or JSON bodies chosen by the exact Content-Type, events
 * as RecordIO records in the format `Accept` asks for (JSON unless it names only protobuf, §1.2),
 * built on the codec's `decodeCall`/`encodeEvent`. It enforces what the master enforces on headers
 * (§1.5: no stream id on SUBSCRIBE, the current stream id on every other call; 415 on a bad
 * Content-Type) and records every call with its `Mesos-Stream-Id`.
 *
 * Scripting: `subscribeAnswers` / `callAnswers` queues answer the next requests with a status
 * (307 + Location to another fake master, 4xx, 5xx); `hangWhen` leaves chosen calls unanswered
 * until `releaseHung`; `send` writes an event on the open stream,
 * `sendRaw` any bytes (garbage frames), `cutStream` destroys the connection, `endStream` ends the
 * body (as after TEARDOWN). One stream at a time: a new SUBSCRIBE sends the old stream
 * `ERROR "Framework failed over"` and ends it, as a real master does (§1.8).
 *
 * Agents: `executors` follows the lifetime of default executors (fake-executors.ts); a LAUNCH_GROUP
 * whose executor id is taken is answered by the master model's rule (src/master/executor-book.ts:
 * TASK_DROPPED while the executor shuts down, as a real agent answers it). Everything else a
 * master decides (offers, task states) the tests script; a fake whose allocator, ledger and
 * ACCEPT checks are the master model's is sim-backed-master.ts.
 */
export class FakeMaster {
  readonly calls: ReceivedCall[] = [];
  /** Answers for the next SUBSCRIBE requests, in order (then the normal behaviour). */
  readonly subscribeAnswers: ScriptedAnswer[] = [];
  /** Answers for the next non-SUBSCRIBE requests, in order (then 202, or 200 for UPDATE_FRAMEWORK). */
  readonly callAnswers: ScriptedAnswer[] = [];
  /** Answers for the next ACCEPT requests only, in order (before `callAnswers`). */
  readonly acceptAnswers: ScriptedAnswer[] = [];
  /**
   * Calls to leave unanswered: the next call a predicate matches (each predicate is used once) is
   * recorded with status 0 and its connection kept open without an answer — a master that took the
   * request and hangs — until `releaseHung` answers it.
   */
  readonly hangWhen: ((call: Call) => boolean)[] = [];
  private readonly hung: { readonly call: Call; readonly res: http.ServerResponse }[] = [];
  /**
   * Refusals for the next accepted SUBSCRIBEs, in order: 200, then one ERROR event with this
   * message instead of SUBSCRIBED, then the stream ends (how a master refuses a subscription, §1.3).
   */
  readonly subscribeErrors: string[] = [];
  readonly behaviour: SubscribeBehaviour = {
    autoSubscribed: true,
    heartbeatIntervalSeconds: 15,
    newFrameworkId: () => `${randomUUID()}-0000`,
  };
  /** Default executors on the agents (LAUNCH_GROUP), learnt from ACCEPTs and the UPDATEs sent. */
  readonly executors = new FakeExecutors((event) => { if (this.stream !== undefined) this.send(event); });
  /**
   * With credentials, every request needs HTTP basic auth with them (a master with
   * `--authenticate_http_frameworks`): 401 with the realm's challenge otherwise, counted in
   * `unauthorized`; and an authenticated SUBSCRIBE must name the same principal in its
   * FrameworkInfo (§2.1, 400 otherwise).
   */
  credentials: { readonly principal: string; readonly secret: string } | undefined;
  /** Requests answered 401. */
  unauthorized = 0;
  /**
   * Called when the connection of the open subscription closes from the framework's side (its
   * scheduler stopped or died) — not when a new SUBSCRIBE replaces it, nor on `cutStream`,
   * `endStream` or `close`: what a real master sees as the framework disconnecting
   * (master.cpp `exited` → `_exited`).
   */
  onStreamClosed: (() => void) | undefined;
  private stream: OpenStream | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: http.Server, readonly url: string) {}

  /** Starts a fake master on 127.0.0.1 and a free port. */
  static async start(): Promise<FakeMaster> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const master = new FakeMaster(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      master.sockets.add(socket);
      socket.on('close', () => master.sockets.delete(socket));
    });
    server.on('request', (req, res) => master.onRequest(req, res));
    return master;
  }

  /** `host:port`, as a 307 Location names it (protocol-relative, §1.6). */
  get hostPort(): string {
    return this.url.replace(/^http:\/\//, '');
  }

  /** The open stream's id, if a subscription is open. */
  get streamId(): string | undefined {
    return this.stream?.streamId;
  }

  /** The framework id of the open stream. */
  get frameworkId(): string | undefined {
    return this.stream?.frameworkId;
  }

  /** Whether a SUBSCRIBE stream is open. */
  get subscribed(): boolean {
    return this.stream !== undefined;
  }

  /** Calls of one type, in arrival order. */
  callsOf(type: CallType): ReceivedCall[] {
    return this.calls.filter((c) => c.call.type === type);
  }

  /** Waits (bounded) for the n-th call (1-based) of a type. */
  async waitForCall(type: CallType, nth = 1, timeoutMs = PATIENCE_MS): Promise<ReceivedCall> {
    return waitUntil(() => this.callsOf(type)[nth - 1], timeoutMs, `${type} #${nth}`);
  }

  /** Waits (bounded) for an open stream (after the n-th accepted SUBSCRIBE). */
  async waitForStream(timeoutMs = PATIENCE_MS): Promise<string> {
    return waitUntil(() => this.stream?.streamId, timeoutMs, 'an open SUBSCRIBE stream');
  }

  /** Writes one event on the open stream in its format. Throws when no stream is open. */
  send(event: Event): void {
    const stream = this.requireStream();
    this.executors.observe(event);
    stream.res.write(encodeRecord(encodeEvent(event, stream.format)));
  }

  /** Writes raw bytes on the open stream (garbage frames, partial records). */
  sendRaw(bytes: Uint8Array | string): void {
    this.requireStream().res.write(bytes);
  }

  /** Destroys the stream's connection (a network cut or a dying master). */
  cutStream(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.res.destroy();
  }

  /** Ends the stream's body cleanly (`0\r\n\r\n`, as after TEARDOWN or ERROR, §9 of the samples). */
  endStream(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.res.end();
  }

  /** Answers every hung call as the master normally would (202, or 200 for UPDATE_FRAMEWORK); how many there were. */
  releaseHung(): number {
    const hung = this.hung.splice(0);
    for (const { call, res } of hung) answer(res, { status: call.type === 'UPDATE_FRAMEWORK' ? 200 : 202 });
    return hung.length;
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    this.stream = undefined;
    this.hung.length = 0;
    this.executors.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private requireStream(): OpenStream {
    if (this.stream === undefined) throw new Error('no SUBSCRIBE stream is open');
    return this.stream;
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => this.onBody(req, res, new Uint8Array(Buffer.concat(chunks))));
  }

  private onBody(req: http.IncomingMessage, res: http.ServerResponse, body: Uint8Array): void {
    if (req.method !== 'POST' || req.url !== '/api/v1/scheduler') return answer(res, { status: 405 });
    const denied = this.checkCredentials(header(req, 'authorization'));
    if (denied !== undefined) {
      this.unauthorized++;
      return answer(res, denied);
    }
    const format = formatOfMediaType(req.headers['content-type']);
    if (format === undefined) {
      return answer(res, { status: 415, body: "Expecting 'Content-Type' of application/json or application/x-protobuf" });
    }
    let call: Call;
    try {
      call = decodeCall(body, format);
    } catch (err) {
      return answer(res, { status: 400, body: `Failed to parse body: ${(err as Error).message}` });
    }
    const streamId = header(req, 'mesos-stream-id');
    const accept = header(req, 'accept');
    const authorization = header(req, 'authorization');
    const record = (status: number): void => {
      this.calls.push({
        call, format, status, ...(streamId === undefined ? {} : { streamId }), ...(accept === undefined ? {} : { accept }),
        ...(authorization === undefined ? {} : { authorization }),
      });
    };
    if (call.type === 'SUBSCRIBE') return this.onSubscribe(call, req, res, record);
    const hangAt = this.hangWhen.findIndex((matches) => matches(call));
    if (hangAt >= 0) {
      this.hangWhen.splice(hangAt, 1);
      record(0);
      this.hung.push({ call, res });
      return;
    }
    const scripted = (call.type === 'ACCEPT' ? this.acceptAnswers.shift() : undefined) ?? this.callAnswers.shift();
    const reply = scripted ?? this.checkStreamId(streamId) ?? { status: call.type === 'UPDATE_FRAMEWORK' ? 200 : 202 };
    record(reply.status);
    if (reply.drop === true) {
      res.socket?.destroy();
      return;
    }
    answer(res, reply);
    if (reply.status === 202 && this.stream !== undefined) for (const event of this.executors.onCall(call)) this.send(event);
  }

  /** libprocess's HTTP authentication of the scheduler endpoint: before the body is looked at. */
  private checkCredentials(authorization: string | undefined): ScriptedAnswer | undefined {
    const expected = this.credentials;
    if (expected === undefined) return undefined;
    const want = `Basic ${Buffer.from(`${expected.principal}:${expected.secret}`).toString('base64')}`;
    if (authorization === want) return undefined;
    return { status: 401, headers: { 'WWW-Authenticate': `Basic realm="${SCHEDULER_REALM}"` } };
  }

  private checkStreamId(streamId: string | undefined): ScriptedAnswer | undefined {
    if (streamId === undefined) return { status: 400, body: "All non-subscribe calls should include the 'Mesos-Stream-Id' header" };
    if (this.stream === undefined) return { status: 403, body: 'Framework is not subscribed' };
    if (streamId !== this.stream.streamId) {
      return { status: 400, body: `The stream ID '${streamId}' included in this request didn't match the stream ID currently associated with framework ID ${this.stream.frameworkId}` };
    }
    return undefined;
  }

  private onSubscribe(call: Call, req: http.IncomingMessage, res: http.ServerResponse, record: (status: number) => void): void {
    const scripted = this.subscribeAnswers.shift();
    const principal = call.subscribe?.frameworkInfo.principal;
    const problem = scripted ?? (header(req, 'mesos-stream-id') === undefined ? undefined
      : { status: 400, body: "Subscribe calls should not include the 'Mesos-Stream-Id' header" })
      ?? (this.credentials === undefined || principal === this.credentials.principal ? undefined
        : { status: 400, body: `Authenticated principal '${this.credentials.principal}' does not match principal '${principal ?? ''}' set in \`FrameworkInfo\`` });
    if (problem !== undefined) {
      record(problem.status);
      answer(res, problem);
      return;
    }
    record(200);
    const previous = this.stream;
    if (previous !== undefined) {
      this.stream = undefined;
      previous.res.end(encodeRecord(encodeEvent({ type: 'ERROR', error: { message: 'Framework failed over' } }, previous.format)));
    }
    const accept = header(req, 'accept');
    const format: MesosFormat = accept === MEDIA_TYPES.protobuf ? 'protobuf' : 'json';
    const streamId = randomUUID();
    const frameworkId = call.frameworkId?.value ?? this.behaviour.newFrameworkId();
    res.writeHead(200, { 'Mesos-Stream-Id': streamId, 'Content-Type': MEDIA_TYPES[format] });
    res.flushHeaders();
    this.stream = { streamId, format, res, frameworkId };
    res.on('close', () => {
      if (this.stream?.res !== res) return;
      this.stream = undefined;
      this.onStreamClosed?.();
    });
    const refusal = this.subscribeErrors.shift();
    if (refusal !== undefined) {
      this.send({ type: 'ERROR', error: { message: refusal } });
      this.endStream();
      return;
    }
    if (this.behaviour.autoSubscribed) {
      this.send({ type: 'SUBSCRIBED', subscribed: { frameworkId: { value: frameworkId }, heartbeatIntervalSeconds: this.behaviour.heartbeatIntervalSeconds } });
      this.send({ type: 'HEARTBEAT' });
    }
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function answer(res: http.ServerResponse, reply: ScriptedAnswer): void {
  const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8', ...reply.headers };
  if (reply.location !== undefined) headers.Location = reply.location;
  res.writeHead(reply.status, headers);
  res.end(reply.body ?? '');
}
