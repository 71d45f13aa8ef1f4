import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { StateFile } from '../../src/cluster/local/state-file';
import { patientSignal } from '../harness/wait';
import { tempDir, waitFor } from './e2e-kit';
import { exitOf, spawnMain, startupPort } from './main-kit';

/**
 * Ctrl-C while a scheduler-run health probe is in flight. `close()` stops the API, the cluster
 * and the timers and closes the store, but an HTTP probe already sent still answers afterwards:
 * its observation is posted into the loop and handled by the core, which writes to the closed
 * store.
 *
 * Stopping while a probe is in flight: close() stops the loop before closing the store, so a late
 * observation is dropped instead of reaching a core whose store is closed (it once crashed here).
 */

/** The task answers its health check 1.5 s late, after leaving a `probed` file in its sandbox. */
const SLOW_SERVER = "require('http').createServer((q,s)=>{require('fs').writeFileSync('probed','');setTimeout(()=>s.end('ok'),1500)})"
  + ".listen(process.env.PORT0,'127.0.0.1')";

const APP = {
  id: '/slow-health',
  cmd: `${JSON.stringify(process.execPath)} -e "${SLOW_SERVER}"`,
  cpus: 0.1, mem: 32, instances: 1, portDefinitions: [{ port: 0 }],
  healthChecks: [{ protocol: 'HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 30, intervalSeconds: 3, timeoutSeconds: 2, maxConsecutiveFailures: 3 }],
};

/** SIGKILL the process groups of every task the local cluster's state file records (tasks outlive pacer). */
function killTasksOnTeardown(t: Test, sandboxRoot: string): void {
  t.teardown(() => {
    const state = new StateFile(join(sandboxRoot, 'local-cluster.json')).load();
    for (const task of state?.executors.flatMap((e) => e.tasks) ?? []) {
      if (task.pid === undefined) continue;
      try {
        process.kill(-task.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

t.test('SIGTERM while a health probe is in flight: exit 0, "stopped", no crash afterwards', async (t) => {
  const dir = tempDir(t);
  const sandboxRoot = join(dir, 'sandboxes');
  killTasksOnTeardown(t, sandboxRoot);
  const main = spawnMain(t, ['--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', sandboxRoot]);
  const port = await startupPort(main);
  const created = await fetch(`http://127.0.0.1:${port}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(APP), signal: patientSignal(),
  });
  t.equal(created.status, 201, 'the app is created');
  await waitFor(() => existsSync(sandboxRoot) && readdirSync(sandboxRoot).some((d) => existsSync(join(sandboxRoot, d, 'probed'))),
    'the first health probe to reach the task');
  main.child.kill('SIGTERM');
  const exit = await exitOf(main, 'main to exit after SIGTERM');
  t.match(main.stderr(), /"component":"pacer","msg":"stopped"\}\n/, 'pacer says it stopped');
  t.same(exit, { code: 0, signal: null }, 'exits 0');
  t.notMatch(main.stderr(), /The database connection is not open/, 'no write to the closed store');
  t.match(main.stderr(), /"component":"pacer","msg":"stopped"\}\n$/, '"stopped" is the last thing it says');
});
