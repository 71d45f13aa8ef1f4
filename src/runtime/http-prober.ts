import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { ProbeObservation, ProbeRequest, Prober } from '../scheduler/ports/prober';

/** Bodies kept for readiness results are cut at this size. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * Scheduler-run health and readiness checks over the network (the Prober port): HTTP/HTTPS GET of
 * `path`, or a TCP connect, each bounded by the request's `timeoutMs`: a health check by its status
 * line (its body is not read), a readiness check by its whole answer. The prober only observes;
 * the core judges. Every outcome — answer, refusal, timeout — is posted back as an observation
 * carrying the probe's id; nothing throws. HTTPS probes do not verify certificates (Marathon's
 * checks did not either: tasks use self-signed certificates).
 */
export class HttpProber implements Prober {
  constructor(private readonly post: (observation: ProbeObservation) => void) {}

  probe(req: ProbeRequest): void {
    if (req.protocol === 'TCP') this.tcp(req);
    else this.http(req);
  }

  private tcp(req: ProbeRequest): void {
    const socket = connect({ host: req.host, port: req.port });
    const done = once((obs: ProbeObservation) => {
      socket.destroy();
      this.post(obs);
    });
    socket.setTimeout(req.timeoutMs, () => done({ probeId: req.probeId, timedOut: true, message: `no connection within ${req.timeoutMs} ms` }));
    socket.once('connect', () => done({ probeId: req.probeId, connected: true }));
    socket.once('error', (err) => done({ probeId: req.probeId, connected: false, message: err.message }));
  }

  private http(req: ProbeRequest): void {
    const send = req.protocol === 'HTTPS' ? httpsRequest : httpRequest;
    // timeoutSeconds is a deadline for the whole check: for the status of a health check, for the
    // whole answer of a readiness check (one that trickles in forever fails).
    const deadline = setTimeout(() => {
      done({ probeId: req.probeId, timedOut: true, message: `no answer within ${req.timeoutMs} ms` });
      outgoing.destroy();
    }, req.timeoutMs);
    const done = once((obs: ProbeObservation) => {
      clearTimeout(deadline);
      this.post(obs);
    });
    const outgoing = send({
      host: req.host, port: req.port, path: req.path === '' ? '/' : req.path, method: 'GET',
      timeout: req.timeoutMs, rejectUnauthorized: false, headers: { 'User-Agent': 'pacer-health-check' },
    }, (res) => {
      if (req.purpose !== 'readiness') {
        // A health check is judged by its status alone, as soon as the status line arrives; the
        // body is not waited for (Marathon's HealthCheckWorker takes the response's status and
        // discards its entity): an endpoint that streams, or stalls after its headers, is not a timeout.
        done({ probeId: req.probeId, httpStatus: res.statusCode ?? 0 });
        res.on('error', () => undefined);
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_BODY_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => done({
        probeId: req.probeId, httpStatus: res.statusCode ?? 0,
        contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'),
      }));
      res.on('error', (err) => done({ probeId: req.probeId, connected: false, message: err.message }));
    });
    outgoing.on('timeout', () => {
      done({ probeId: req.probeId, timedOut: true, message: `no answer within ${req.timeoutMs} ms` });
      outgoing.destroy();
    });
    outgoing.on('error', (err) => done({ probeId: req.probeId, connected: false, message: err.message }));
    outgoing.end();
  }
}

function once<T>(fn: (value: T) => void): (value: T) => void {
  let called = false;
  return (value) => {
    if (called) return;
    called = true;
    fn(value);
  };
}
