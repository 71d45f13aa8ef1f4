#!/usr/bin/env node
import { parseConfig, usage, type PacerConfig } from './runtime/config';
import type { ListenerAddress } from './runtime/api-listeners';
import { exposureWarnings } from './runtime/exposure-warnings';

/**
 * Composition root (`npm start`). The embedded default runs the scheduler on real processes of
 * this host with the embedded store and serves Marathon's REST API and event stream
 * (`--cluster local`); `--cluster sim` serves the same API over the simulated cluster paced in
 * real time, running a workload file's timeline (faults included) alongside;
 * `--cluster mesos --master …` schedules on a Mesos master through the v1 scheduler HTTP API.
 */
async function main(): Promise<number> {
  const parsed = parseConfig(process.argv.slice(2), process.env, process.cwd());
  if (parsed === 'help') {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`pacer: ${parsed.error}\n\n${usage()}\n`);
    return 2;
  }
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  switch (parsed.cluster) {
    // Each composition is loaded only when chosen: start-up (and every restart) loads one cluster's code, not three.
    case 'sim':
      return serve(parsed, abort.signal, async () => (await import('./runtime/start-sim.js')).startSim(parsed), 'simulated cluster paced in real time');
    case 'mesos':
      if (parsed.master === undefined) {
        process.stderr.write(`pacer: --cluster mesos needs --master http://host:5050 or zk://host:2181/mesos (or PACER_MASTER)\n\n${usage()}\n`);
        return 2;
      }
      return serve(parsed, abort.signal, async () => (await import('./runtime/start-mesos.js')).startMesos(parsed), `Mesos master ${parsed.master}`);
    case 'local':
      return serve(parsed, abort.signal, async () => (await import('./runtime/start-local.js')).startLocal(parsed), 'local cluster');
  }
}

/** What every start function returns that `serve` needs. */
interface Running {
  readonly listening: readonly ListenerAddress[];
  reloadAuth(): void;
  close(): Promise<void>;
}

async function serve(
  config: PacerConfig, signal: AbortSignal, start: () => Promise<Running>, what: string,
): Promise<number> {
  for (const line of exposureWarnings(config)) process.stderr.write(`${line}\n`);
  let running: Running;
  try {
    running = await start();
  } catch (err) {
    process.stderr.write(`pacer: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  const where = config.cluster === 'sim' ? 'state in memory' : `store ${config.storePath}; tasks keep running after Ctrl-C`;
  const urls = running.listening.map((l) => `${l.scheme}://${l.address}`).join(' and ');
  process.stderr.write(`pacer: Marathon API on ${urls} (${what}, ${where}); Ctrl-C stops\n`);
  // SIGHUP re-reads the credentials and tokens files (they are also watched for changes).
  const reload = (): void => running.reloadAuth();
  process.on('SIGHUP', reload);
  await new Promise<void>((resolveStop) => {
    if (signal.aborted) resolveStop();
    else signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
  process.off('SIGHUP', reload);
  await running.close();
  process.stderr.write('pacer: stopped\n');
  return 0;
}

main().then((code) => {
  process.exitCode = code;
}, (e: unknown) => {
  process.stderr.write(`pacer: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
