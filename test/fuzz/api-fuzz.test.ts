import { join } from 'node:path';
import seedrandom from 'seedrandom';
import t from 'tap';
import { tempDir } from '../store/sqlite/store-fixture';
import { FuzzCore } from './fuzz-fixture';
import { type FuzzRequest, nextRequest } from './fuzz-requests';
import { Draw } from './fuzz-values';
import { stateSnapshot } from './state-snapshot';

/**
 * The seeded API fuzzer (issue 11, "in the suite, for good"): thousands of requests through
 * `fastify.inject` over a real core — every field of apps, pods and groups (from their JSON
 * Schemas) with wrong types, out-of-range numbers, oversized strings, lists and maps, deep
 * nesting, bad ids; wrong methods, content types and charsets; malformed bodies; deletes,
 * restarts, kills and scales in between, while time passes and offers arrive. It asserts:
 *
 * - no answer is a 5xx;
 * - no 4xx changes anything (root and its versions, run specs, instances, deployments);
 * - a new core starts on the SQLite store the requests left, and sets nothing aside: the API
 *   never stores what the core cannot load.
 *
 * `PACER_FUZZ_SEED` picks another seed (the default is fixed, and every failure names it),
 * `PACER_FUZZ_REQUESTS` the number of requests (default 2,500; docs/limits.md). Deeper runs take
 * longer than tap's per-file timeout: `npx tap --timeout=0 test/fuzz/api-fuzz.test.ts`.
 */
const SEED = process.env.PACER_FUZZ_SEED ?? 'pacer-fuzz-1';
const REQUESTS = Number(process.env.PACER_FUZZ_REQUESTS ?? 2500);
const MAX_REPORTED = 10;

t.test(`API fuzzer: ${REQUESTS} requests, seed ${SEED}`, async (t) => {
  const storePath = join(tempDir(t), 'pacer.db');
  const core = new FuzzCore(storePath, SEED);
  const draw = new Draw(seedrandom(SEED));
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const started = Date.now();
  // The snapshot after a 4xx that changed nothing is the next request's "before" (half the cost).
  let known: string | undefined;
  for (let i = 0; i < REQUESTS && failures.length < MAX_REPORTED; i++) {
    if (i % 40 === 39) {
      known = undefined;
      try {
        core.tick();
      } catch (err) {
        failures.push(`seed ${SEED}, after request ${i - 1}: the core threw on a cluster input: ${(err as Error).message}`);
        break;
      }
    }
    core.step();
    const request = nextRequest(draw);
    const before = known ?? stateSnapshot(core.scheduler);
    const { status, body } = await send(core, request);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    known = status >= 400 && status < 500 ? stateSnapshot(core.scheduler) : undefined;
    const problem = status >= 500 ? 'a 5xx' : known !== undefined && known !== before ? `a ${status} that changed the state` : undefined;
    if (problem !== undefined) failures.push(`seed ${SEED}, request ${i}: ${problem}: ${describe(request)} → ${status} ${body.slice(0, 300)}`);
  }
  await core.close();
  t.same(failures, [], `no 5xx, no change on a 4xx (PACER_FUZZ_SEED=${SEED} PACER_FUZZ_REQUESTS=${REQUESTS} reproduces)`);
  try {
    const again = new FuzzCore(storePath, `${SEED}/restart`);
    const setAside = again.scheduler.setAsideRecords();
    await again.close();
    t.same(setAside, [], `a new core starts on the store the requests left and sets nothing aside (seed ${SEED})`);
  } catch (err) {
    t.fail(`seed ${SEED}: a new core does not start on the store the requests left: ${(err as Error).message}`);
  }
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  t.comment(`${REQUESTS} requests in ${Date.now() - started} ms: ${byStatus}`);
  t.ok([...statuses.keys()].some((s) => s < 300), 'some requests succeeded (state was built)');
  t.ok([...statuses.keys()].some((s) => s === 422), 'some were refused as invalid');
});

async function send(core: FuzzCore, request: FuzzRequest): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  if (request.raw !== undefined) payload = request.raw;
  else if (request.body !== undefined) payload = JSON.stringify(request.body);
  if (payload !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  if (headers['content-type'] === '') delete headers['content-type'];
  const res = await core.app.inject({ method: request.method, url: request.url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.body };
}

function describe(request: FuzzRequest): string {
  const body = request.raw ?? (request.body === undefined ? '' : JSON.stringify(request.body));
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
  return `${request.method} ${request.url.slice(0, 200)}${request.contentType === undefined ? '' : ` [${request.contentType}]`} ${shown}`;
}
