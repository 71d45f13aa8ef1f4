import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../harness/repo-path';
import { PATIENCE_MS } from '../../harness/wait';
import {
  MAX_APPS_PER_REQUEST, MAX_BACKOFF_FACTOR, MAX_CONSECUTIVE_FAILURES, MAX_ITEMS, MAX_JSON_DEPTH, MAX_KEY_LENGTH, MAX_RESOURCE,
  MAX_SECONDS, MAX_STRING_LENGTH,
} from '../../../src/marathon/schemas/limits';
import { EXECUTOR_RESOURCES_DEFAULT } from '../../../src/marathon/convert/pod-from-wire';
import { MAX_INSTANCES } from '../../../src/scheduler/model/run-spec-limits';
import { MAX_ID_LENGTH, MAX_ID_SEGMENTS } from '../../../src/scheduler/groups/path-id';
import { DEFAULT_MAX_VERSIONS } from '../../../src/scheduler/groups/version-history';
import { DEFAULT_SCHEDULER_OPTIONS, RESEND_REFUSE_MS } from '../../../src/scheduler/scheduler-options';
import { DEFAULT_KILL_GRACE_MS } from '../../../src/scheduler/kill/kill-instance';
import { MAX_VALUE_IDS } from '../../../src/scheduler/constraints/value-ids';
import { OFFER_LOG_MAX, OFFER_LOG_SLOTS_MAX } from '../../../src/scheduler/matcher/offer-use-log';
import { MIN_TOKEN_CHARS } from '../../../src/api/auth/tokens-file';
import { SWEEP_MIN_ENTRIES } from '../../../src/scheduler/state/task-owners';
import { SHARED_FILTERS_MIN, SHARED_FILTERS_PER_CANDIDATE } from '../../../src/scheduler/matcher/match-offers';
import { INLINE_MAX_BYTES, NODE_MAX_BYTES } from '../../../src/store/zk/zk-layout';
import { LIST_BODY_CACHE_BYTES, LIST_BODY_CACHE_ENTRIES, LIST_SEGMENT_CHARS } from '../../../src/api/render/list-body-cache';
import { DEFAULT_END_GRACE_MS, DEFAULT_EVENT_BUFFER_BYTES, DEFAULT_EVENT_BUFFER_SIZE } from '../../../src/api/events/event-stream-hub';
import { MARATHON_API_VERSION } from '../../../src/api/v2/system/info-json';
import {
  DEFAULT_INSTANCES_PER_INPUT, DEFAULT_LAUNCHES_PER_INPUT, MAX_FAILOVER_TIMEOUT_S, MAX_FRAMEWORK_NAME_LENGTH, MAX_MESOS_USER_LENGTH,
} from '../../../src/runtime/config';
import { CORE_FAILURE_EXIT_CODE } from '../../../src/runtime/core-failure';
import { DEFAULT_RING_INPUTS, RING_CHARS_MAX } from '../../../src/runtime/recording/flight-recorder';
import { DEFAULT_SANDBOX_GC_DELAY_MS, DEFAULT_SANDBOX_KEEP } from '../../../src/cluster/local/local-cluster-options';
import { DEFAULTS as MESOS } from '../../../src/cluster/mesos/mesos-cluster-options';
import { MAX_WARNED_STATES } from '../../../src/cluster/mesos/mesos-cluster';
import { NO_LEADER_WAIT_MS } from '../../../src/ha/leader-proxy';
import { DEFAULT_WHAT_IF_LIMITS as WHAT_IF, isoDuration } from '../../../src/whatif/what-if-limits';
import { SAME_INSTANT_MAX, SAME_INSTANT_PER_TASK } from '../../../sim/runner/run-scenario';
import { RUN_LOOP_STEPS_DEFAULT, RUN_LOOP_STEPS_MAX, SCENARIO_ALIASES_MAX } from '../../../sim/scenario/scenario-limits';

/**
 * The numbers README.md and docs/*.md state about bounds, defaults and timings are claims about
 * constants of the code: each phrase below is built from the constant it names and must appear in
 * its document (whitespace and line breaks aside). A changed constant fails here until the
 * document says the new value; a reworded sentence fails until its phrase here is reworded too.
 * (The flags' defaults and ranges are checked against the parser by
 * test/runtime/readme-options.test.ts.)
 */

const KiB = 1024;
const MiB = 1024 * 1024;
/** `100000` → `100,000`, as the documents write numbers. */
const n = (v: number): string => v.toLocaleString('en-US');

const CLAIMS: Readonly<Record<string, readonly string[]>> = {
  'docs/limits.md': [
    `| YAML aliases (\`*name\`) in a file | ${n(SCENARIO_ALIASES_MAX)} (`,
    `| ${MAX_JSON_DEPTH} levels | \`MAX_JSON_DEPTH\``,
    `"Nesting depth exceeds ${MAX_JSON_DEPTH}"`,
    `| ${n(MAX_APPS_PER_REQUEST)} | \`MAX_APPS_PER_REQUEST\``,
    `a request may hold at most ${MAX_APPS_PER_REQUEST} apps`,
    `| ${MAX_ID_LENGTH} characters | \`MAX_ID_LENGTH\``,
    `must not be longer than ${MAX_ID_LENGTH} characters`,
    `| ${MAX_ID_SEGMENTS} | \`MAX_ID_SEGMENTS\``,
    `must not have more than ${MAX_ID_SEGMENTS} path segments`,
    `| 0 – ${n(MAX_INSTANCES)} | \`MAX_INSTANCES\``,
    `more than ${MAX_INSTANCES}\`, nothing scaled`,
    `Marathon's minimum – ${n(MAX_SECONDS)} (about 68 years) | \`MAX_SECONDS\``,
    `| 0 – ${n(MAX_CONSECUTIVE_FAILURES)} | \`MAX_CONSECUTIVE_FAILURES\``,
    `Marathon's minimum – ${n(MAX_RESOURCE)} | \`MAX_RESOURCE\``,
    `Marathon's minimum – ${n(MAX_BACKOFF_FACTOR)} | \`MAX_BACKOFF_FACTOR\``,
    `| ${n(MAX_STRING_LENGTH)} characters | \`MAX_STRING_LENGTH\``,
    `| ${n(MAX_KEY_LENGTH)} characters | \`MAX_KEY_LENGTH\``,
    `| ${n(MAX_ITEMS)} | \`MAX_ITEMS\``,
    `| task ids of one \`POST /v2/tasks/delete\` body (\`{"ids":[…]}\`) | ${n(MAX_ITEMS)}, the bound of every other list (duplicates count) | \`MAX_ITEMS\``,
    `one input creates at most ${DEFAULT_INSTANCES_PER_INPUT} instances and kills at most ${DEFAULT_INSTANCES_PER_INPUT} for a delete, and places at most ${DEFAULT_LAUNCHES_PER_INPUT}`,
    `| ${DEFAULT_INSTANCES_PER_INPUT} (the core's default, which scenarios keep: ${n(DEFAULT_SCHEDULER_OPTIONS.instancesPerInput)}) | \`--instances_per_input\``,
    `after subscribing and every ${DEFAULT_SCHEDULER_OPTIONS.reconciliationIntervalMs / 1000} s`,
    `(every ${DEFAULT_SCHEDULER_OPTIONS.scaleAppsIntervalMs / 1000} s, Marathon's \`--scale_apps_interval\`)`,
    `| ${DEFAULT_LAUNCHES_PER_INPUT} (scenarios: ${n(DEFAULT_SCHEDULER_OPTIONS.launchesPerInput)}) | \`--launches_per_input\``,
    `| ${n(DEFAULT_SCHEDULER_OPTIONS.launchesPerOfferBatch)} | \`--launches_per_offer_batch\``,
    `Mesos's default ${RESEND_REFUSE_MS / 1000} s filter (\`RESEND_REFUSE_MS\`)`,
    `the core's own defaults, ${n(DEFAULT_SCHEDULER_OPTIONS.launchesPerOfferBatch)} and ${n(DEFAULT_SCHEDULER_OPTIONS.launchesPerInput)}`,
    `| ${DEFAULT_MAX_VERSIONS} (the oldest go first) | \`DEFAULT_MAX_VERSIONS\``,
    `removed ${n(DEFAULT_SANDBOX_GC_DELAY_MS)} ms (one week) after the task's terminal update is acknowledged, and at most ${n(DEFAULT_SANDBOX_KEEP)} kept`,
    `plain up to ${INLINE_MAX_BYTES / KiB} KiB, gzipped up to ${NODE_MAX_BYTES / KiB} KiB, else gzipped in ${NODE_MAX_BYTES / KiB} KiB chunks`,
    `${LIST_BODY_CACHE_ENTRIES} per route (one per query string), ${LIST_BODY_CACHE_BYTES / MiB} MiB of segments per route`,
    `(${LIST_SEGMENT_CHARS / 1024} × 1,024 characters)`,
    `${n(DEFAULT_EVENT_BUFFER_SIZE)} events (Marathon's) or ${DEFAULT_EVENT_BUFFER_BYTES / MiB} MiB of them`,
    `a connection not read out ${DEFAULT_END_GRACE_MS / 1000} s after that is reset`,
    `up to ${SHARED_FILTERS_PER_CANDIDATE} per candidate of the cycle plus ${SHARED_FILTERS_MIN}`,
    `| ${n(MAX_VALUE_IDS)} fields and values together`,
    `| ${n(OFFER_LOG_MAX)} entries (and the offers they refer to)`,
    `| ${n(OFFER_LOG_SLOTS_MAX)} statistics, then started over after the next fold (it grows by at most ${n(OFFER_LOG_MAX)} between two folds)`,
    `at most max(${n(SWEEP_MIN_ENTRIES)}, twice the entries still owned at the last sweep)`,
    `| 1 to ${MAX_FRAMEWORK_NAME_LENGTH} printable characters | \`MAX_FRAMEWORK_NAME_LENGTH\``,
    `| 1 to ${MAX_MESOS_USER_LENGTH} characters, no blanks`,
    `| 0 to ${n(MAX_FAILOVER_TIMEOUT_S)} s (ten years; default ${n(MESOS.failoverTimeoutSeconds)}, one week)`,
    `| ${MESOS.callTimeoutMs / 1000} s, then given up as unanswered`,
    `| ${MESOS.maxConcurrentCalls}; more wait their turn in the outbox | \`maxConcurrentCalls\``,
    `| ${n(MESOS.maxHeldCalls)}; the oldest are dropped beyond | \`maxHeldCalls\``,
    `| ${n(MESOS.maxQueuedCalls)}; beyond it the oldest waiting KILL and ACKNOWLEDGE calls are dropped down to half of it`,
    `| ${MESOS.maxCallRetries}, after ${MESOS.callRetryInitialMs / 1000} s, ${(2 * MESOS.callRetryInitialMs) / 1000} s, ${(4 * MESOS.callRetryInitialMs) / 1000} s |`,
    `| ${MAX_WARNED_STATES} distinct states; later ones are acknowledged without a warning | \`MAX_WARNED_STATES\``,
    `at most \`${isoDuration(WHAT_IF.maxSimulateMs)}\` (\`maxSimulateMs\`)`,
    `| ${n(WHAT_IF.maxInstances)} (\`maxInstances\`) | \`422\` \`the cluster holds more than ${WHAT_IF.maxInstances} instances`,
    `| ${n(WHAT_IF.maxAgents)} (\`maxAgents\`)`,
    `| ${WHAT_IF.wallTimeMs / 1000} s (\`wallTimeMs\`)`,
    `| ${n(WHAT_IF.maxSteps)} (\`maxSteps\`)`,
    `| ${n(WHAT_IF.maxCapacityInstances)} (\`maxCapacityInstances\`)`,
    `| ${WHAT_IF.capacityMs / 60_000} minutes (\`capacityMs\`)`,
    `| ${n(RUN_LOOP_STEPS_DEFAULT)} by default; \`--max-steps N\` sets it, 1 – ${n(RUN_LOOP_STEPS_MAX)} |`,
    `stopped by the bound on a run's work, ${RUN_LOOP_STEPS_DEFAULT} loop steps (--max-steps)`,
    `(at most ${RUN_LOOP_STEPS_MAX})`,
  ],
  'README.md': [
    `sandboxes are kept a week, and at most ${n(DEFAULT_SANDBOX_KEEP)} of them (the oldest go first)`,
    `\`principal:token\` (a token of at least ${MIN_TOKEN_CHARS} characters, `,
    `(\`test/harness/wait.ts\`, ${PATIENCE_MS / 1000} s)`,
    `when no leader is known for ${NO_LEADER_WAIT_MS / 1000} s`,
    `Records above ${INLINE_MAX_BYTES / KiB} KiB are gzipped and above ${NODE_MAX_BYTES / KiB} KiB chunked`,
    `and ${DEFAULT_MAX_VERSIONS} versions are kept per app, pod and root group`,
    `inputs (default ${DEFAULT_RING_INPUTS}, with their records, and never more than ${RING_CHARS_MAX / MiB} Mi characters of records`,
    `may fall ${DEFAULT_EVENT_BUFFER_SIZE} events or ${DEFAULT_EVENT_BUFFER_BYTES / MiB} MiB behind`,
    `(a connection not read out within ${DEFAULT_END_GRACE_MS / 1000} s after that is reset,`,
    `(\`instances\` ≤ ${n(MAX_INSTANCES)}, ids ≤ ${MAX_ID_LENGTH} characters, bodies nested ≤ ${MAX_JSON_DEPTH} deep`,
    `the Marathon API version pacer implements (\`${MARATHON_API_VERSION}\`)`,
    `exits with code ${CORE_FAILURE_EXIT_CODE}`,
    `(Marathon's \`--max_instances_per_offer\`, default ${DEFAULT_SCHEDULER_OPTIONS.maxInstancesPerOffer})`,
    `default ${EXECUTOR_RESOURCES_DEFAULT.cpus} cpus / ${EXECUTOR_RESOURCES_DEFAULT.mem} MiB / ${EXECUTOR_RESOURCES_DEFAULT.disk} MiB`,
    `(\`--accept_refuse_duration\`, ${DEFAULT_SCHEDULER_OPTIONS.acceptRefuseMs} as in Marathon)`,
    `declined with a ${DEFAULT_SCHEDULER_OPTIONS.declineRefuseMs / 1000} s refuse filter (\`--decline_offer_duration\`)`,
    `\`--launches_per_input\` (${DEFAULT_LAUNCHES_PER_INPUT}) instances`,
    `\`--launches_per_offer_batch\` (${n(DEFAULT_SCHEDULER_OPTIONS.launchesPerOfferBatch)}) in all and its offers left then are declined with a ${RESEND_REFUSE_MS / 1000} s filter`,
    `\`taskKillGracePeriodSeconds\` (default ${DEFAULT_KILL_GRACE_MS / 1000};`,
    `(\`maxRunningDeployments\`, ${DEFAULT_SCHEDULER_OPTIONS.maxRunningDeployments})`,
    `(\`--scale_apps_interval\`, ${DEFAULT_SCHEDULER_OPTIONS.scaleAppsIntervalMs / 1000} s)`,
    `after a restart and every ${DEFAULT_SCHEDULER_OPTIONS.scaleAppsIntervalMs / 1000} s`,
    `a run's work: ${RUN_LOOP_STEPS_DEFAULT / 1e6} million loop steps by default`,
  ],
  'docs/scenario-format.md': [
    `(${RUN_LOOP_STEPS_DEFAULT / 1e6} million loop steps unless \`--max-steps\` says otherwise;`,
  ],
  'docs/mesos.md': [
    `timeout of ${MESOS.heartbeatFailureThreshold} heartbeat intervals without any event (the interval SUBSCRIBED gives, ${MESOS.heartbeatIntervalSeconds} s on current masters and when it gives none: ${MESOS.heartbeatFailureThreshold * MESOS.heartbeatIntervalSeconds} s), reconnect backoff ${MESOS.backoffInitialMs / 1000} s doubling to ${MESOS.backoffMaxMs / 1000} s, ${MESOS.callTimeoutMs / 1000} s for SUBSCRIBED to come and for each call's answer`,
    `no event for ${MESOS.heartbeatFailureThreshold} × the heartbeat interval (${MESOS.heartbeatFailureThreshold * MESOS.heartbeatIntervalSeconds} s)`,
    `at most ${MESOS.maxConsecutiveErrors} times in a row`,
    `| \`--failover_timeout\` | \`${MESOS.failoverTimeoutSeconds}\` (one week)`,
    `| \`--framework_name\` | \`${MESOS.frameworkName}\` |`,
    `(at most ${MAX_FRAMEWORK_NAME_LENGTH} printable characters)`,
  ],
  'docs/what-if.md': [
    `at most \`${isoDuration(WHAT_IF.maxSimulateMs)}\``,
    `(at most ${WHAT_IF.capacityMs / 60_000} minutes of virtual time)`,
  ],
  'docs/swarm.md': [
    `${SAME_INSTANT_MAX.toLocaleString('en-US').replace(/,/g, ' ')} steps plus ${SAME_INSTANT_PER_TASK} per task in the cluster`,
    `or that takes ${RUN_LOOP_STEPS_DEFAULT / 1e6} million steps (\`npm run sim\`'s bound on a run's work)`,
    `the dump of a seed the swarm stopped at ${RUN_LOOP_STEPS_DEFAULT / 1e6} million steps stops there`,
  ],
};

/** A document's text with every run of whitespace (line breaks included) as one space. */
function flat(doc: string): string {
  return readFileSync(repoPath(doc), 'utf8').replace(/\s+/g, ' ');
}

for (const [doc, phrases] of Object.entries(CLAIMS)) {
  t.test(`${doc} states the numbers the code holds`, async (t) => {
    const text = flat(doc);
    for (const phrase of phrases) t.ok(text.includes(phrase), `${doc} says: ${phrase}`);
  });
}
