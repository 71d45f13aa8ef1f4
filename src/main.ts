#!/usr/bin/env node
import { parseConfig, usage, type PacerConfig } from './runtime/config';
import { runSim } from './runtime/run-sim';
import { startLocal } from './runtime/start-local';
import { startMesos } from './runtime/start-mesos';

/**
 * Composition root (`npm start`). The embedded default runs the scheduler on real processes of
 * this host with the embedded store and serves Marathon's REST API and event stream
 * (`--cluster local`); `--cluster sim` paces a workload on the simulated cluster in real time;
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
    case 'sim':
      return runSim(parsed, abort.signal);
    case 'mesos':
      if (parsed.master === undefined) {
        process.stderr.write(`pacer: --cluster mesos needs --master http://host:5050 or zk://host:2181/mesos (or PACER_MASTER)\n\n${usage()}\n`);
        return 2;
      }
      return serve(parsed, abort.signal, () => startMesos(parsed), `Mesos master ${parsed.master}`);
    case 'local':
      return serve(parsed, abort.signal, () => startLocal(parsed), 'local cluster');
  }
}

async function serve(
  config: PacerConfig, signal: AbortSignal, start: () => Promise<{ address: string; close(): Promise<void> }>, what: string,
): Promise<number> {
  let running;
  try {
    running = await start();
  } catch (err) {
    process.stderr.write(`pacer: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`pacer: Marathon API on http://${running.address} (${what}, store ${config.storePath}); Ctrl-C stops, tasks keep running\n`);
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
