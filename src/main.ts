#!/usr/bin/env node
import { givenFlags, hiddenArgv, parseConfig, usage, type PacerConfig } from './runtime/config';
import { unusedFlagWarnings } from './runtime/unused-flags';
import type { ListenerAddress } from './runtime/api-listeners';
import { exposureWarnings } from './runtime/exposure-warnings';
import { secretFileWarnings } from './runtime/secret-file-warnings';
import { processTitle } from './runtime/process-title';
import { createPacerLog, type PacerLog } from './runtime/pacer-log';
import { redactCredentials } from './cluster/url-credentials';
import { limitRegexpBacktracking } from './runtime/regexp-backtracking';

/**
 * Composition root (`npm start`). The embedded default runs the scheduler on real processes of
 * this host with the embedded store and serves Marathon's REST API and event stream
 * (`--cluster local`); `--cluster sim` serves the same API over the simulated cluster paced in
 * real time, running a workload file's timeline (faults included) alongside;
 * `--cluster mesos --master …` schedules on a Mesos master through the v1 scheduler HTTP API.
 */
async function main(): Promise<number> {
  // Before any pattern is compiled: a constraint's pattern cannot hold the one thread for long.
  limitRegexpBacktracking();
  // First: a command line is readable by every user of the host (ps, /proc/<pid>/cmdline).
  const hidden = hiddenArgv(process.argv.slice(2));
  if (hidden.hidden.length > 0) process.title = processTitle(process.argv0, process.argv[1] ?? '', hidden.argv, process.cwd());
  const parsed = parseConfig(process.argv.slice(2), process.env, process.cwd());
  if (parsed === 'help') {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`pacer: ${parsed.error}\n\n${usage()}\n`);
    return 2;
  }
  if (parsed.cluster === 'mesos' && parsed.master === undefined) {
    process.stderr.write(`pacer: --cluster mesos needs --master http://host:5050 or zk://host:2181/mesos (or PACER_MASTER)\n\n${usage()}\n`);
    return 2;
  }
  // From here on every line is a record of one log: readable on a terminal, JSON lines otherwise.
  const log = createPacerLog({
    level: parsed.loggingLevel, format: parsed.logFormat ?? (process.stderr.isTTY ? 'text' : 'json'), colors: process.stderr.isTTY,
  });
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  for (const line of unusedFlagWarnings(parsed.cluster, givenFlags(process.argv.slice(2), process.env), parsed.zk !== undefined)) log.child({ component: 'pacer' }).warn(line);
  for (const flag of hidden.hidden) {
    const instead = flag === '--http_credentials' ? 'PACER_HTTP_CREDENTIALS or --http_credentials_file' : `PACER_${flag.slice(2).toUpperCase()}`;
    log.child({ component: 'pacer' }).warn(`${flag} was given on the command line, where every user of this host could read its credentials (ps) until pacer hid them from its process title at start, and for the whole run in the process of npm and its shell when started by npm start: give them in ${instead} instead`);
  }
  const hooks = { log };
  if (parsed.zk !== undefined) {
    const { describeZkUrl, parseZkUrl } = await import('./cluster/mesos/zk/zk-url.js');
    const cluster = parsed.cluster === 'mesos' ? `Mesos master ${redactCredentials(parsed.master ?? '')}` : 'local cluster';
    const where = `${cluster}, one of the pacers at ${describeZkUrl(parseZkUrl(parsed.zk))}`;
    return serve(parsed, log, abort.signal, async () => (await import('./ha/start-ha.js')).startHa(parsed, hooks), where, `store ${describeZkUrl(parseZkUrl(parsed.zk))}/state`);
  }
  switch (parsed.cluster) {
    // Each composition is loaded only when chosen: start-up (and every restart) loads one cluster's code, not three.
    case 'sim':
      return serve(parsed, log, abort.signal, async () => (await import('./runtime/start-sim.js')).startSim(parsed, hooks), 'simulated cluster paced in real time');
    case 'mesos':
      return serve(parsed, log, abort.signal, async () => (await import('./runtime/start-mesos.js')).startMesos(parsed, hooks), `Mesos master ${redactCredentials(parsed.master ?? '')}`);
    case 'local':
      return serve(parsed, log, abort.signal, async () => (await import('./runtime/start-local.js')).startLocal(parsed, hooks), 'local cluster');
  }
}

/** What every start function returns that `serve` needs. */
interface Running {
  readonly listening: readonly ListenerAddress[];
  reloadAuth(): void;
  close(): Promise<void>;
}

/**
 * Starts a composition and serves until SIGINT/SIGTERM. A composition that cannot start says so
 * in one plain line (`pacer: cannot start: …`, as a bad flag does) and exits 1; a running one
 * writes only log records (component `pacer` for its own life: serving, stopped).
 */
async function serve(
  config: PacerConfig, log: PacerLog, signal: AbortSignal, start: () => Promise<Running>, what: string, store = `store ${config.storePath}`,
): Promise<number> {
  const life = log.child({ component: 'pacer' });
  for (const line of exposureWarnings(config)) life.warn(line);
  for (const line of secretFileWarnings(config)) life.warn(line);
  let running: Running;
  try {
    running = await start();
  } catch (err) {
    process.stderr.write(`pacer: cannot start: ${redactCredentials((err as Error).message)}\n`);
    return 1;
  }
  const where = config.cluster === 'sim' ? 'state in memory' : `${store}; tasks keep running after Ctrl-C`;
  const urls = running.listening.map((l) => `${l.scheme}://${l.address}`).join(' and ');
  life.info({ listening: urls, cluster: config.cluster }, `Marathon API on ${urls} (${what}, ${where}); Ctrl-C stops`);
  // SIGHUP re-reads the credentials and tokens files (they are also watched for changes).
  const reload = (): void => running.reloadAuth();
  process.on('SIGHUP', reload);
  await new Promise<void>((resolveStop) => {
    if (signal.aborted) resolveStop();
    else signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
  process.off('SIGHUP', reload);
  await running.close();
  life.info('stopped');
  return 0;
}

main().then((code) => {
  process.exitCode = code;
}, (e: unknown) => {
  process.stderr.write(`pacer: ${redactCredentials((e as Error).stack ?? String(e))}\n`);
  process.exitCode = 1;
});
