import t from 'tap';
import { callAnswerVerdict } from '../../../../src/cluster/mesos/transport/call-answer-verdict';
import type { CallAnswer } from '../../../../src/cluster/mesos/transport/post-call';

/**
 * docs/mesos.md, "failed calls": 307, 401, 403, 404, 409, 5xx and a 400 saying "Framework cannot be
 * found" or naming the stream id mean resubscribe; other 4xx are logged (rejected); no answer is
 * unknown (retried when harmless).
 */
const answered = (status: number, body = ''): CallAnswer => ({ kind: 'answered', status, body });

const CASES: ReadonlyArray<{ readonly answer: CallAnswer; readonly kind: string }> = [
  { answer: answered(200), kind: 'ok' },
  { answer: answered(202), kind: 'ok' },
  { answer: answered(307), kind: 'resubscribe' },
  { answer: answered(403, 'Framework is not subscribed'), kind: 'resubscribe' },
  { answer: answered(404), kind: 'resubscribe' },
  { answer: answered(409), kind: 'resubscribe' },
  { answer: answered(500), kind: 'resubscribe' },
  { answer: answered(503, 'No leader elected'), kind: 'resubscribe' },
  { answer: answered(400, 'Framework cannot be found'), kind: 'resubscribe' },
  { answer: answered(400, 'The stream ID included in this request did not match'), kind: 'resubscribe' },
  { answer: answered(400, 'Failed to validate scheduler::Call: Expecting \'accept\' to be present'), kind: 'rejected' },
  { answer: answered(401), kind: 'resubscribe' },
  { answer: answered(415), kind: 'rejected' },
  { answer: { kind: 'failed', reason: 'ECONNRESET' }, kind: 'unknown' },
];

t.test('what an answer to a call means for the driver (docs/mesos.md, failed calls)', async (t) => {
  for (const c of CASES) {
    const what = c.answer.kind === 'answered' ? `${c.answer.status} ${c.answer.body}`.trim() : `no answer (${c.answer.reason})`;
    t.equal(callAnswerVerdict(c.answer).kind, c.kind, what);
  }
});
