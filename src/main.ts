#!/usr/bin/env node
import { parseConfig, usage, type PacerConfig } from './runtime/config';
import { runSim } from './runtime/run-sim';
import { startLocal } from './runtime/start-local';

/**
 * Composition root (`npm start`). The embedded default runs the scheduler on real processes of
 * this host with the embedded store and serves Marathon's REST API and event stream
 * (`--cluster local`); `--cluster sim` paces a workload on the simulated cluster in real time;
 * `--cluster mesos` is the Mesos v1 driver (issue 6, not built yet).
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
    case 'sim':
      return runSim(parsed, abort.signal);
    case 'mesos':
      process.stderr.write('pacer: --cluster mesos: the Mesos driver is not built yet (issue 6); use --cluster local or sim\n\n' + `${usage()}\n`);
      return 2;
    case 'local':
      return serveLocal(parsed, abort.signal);
  }
}

async function serveLocal(config: PacerConfig, signal: AbortSignal): Promise<number> {
  let running;
  try {
    running = await startLocal(config);
  } catch (err) {
    process.stderr.write(`pacer: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`pacer: Marathon API on http://${running.address} (local cluster, store ${config.storePath}); Ctrl-C stops, tasks keep running\n`);
  await new Promise<void>((resolveStop) => {
    if (signal.aborted) resolveStop();
    else signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
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
