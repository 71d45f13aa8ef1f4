/**
 * Helper process for launcher.test.ts (not a test): starts the launcher and kills it with nothing
 * else keeping this process alive, then prints `killed` — which it can only do if `kill()`
 * resolves before Node exits.
 */
import { TaskLauncher } from '../../../src/cluster/local/task-launcher';

async function main(): Promise<void> {
  const launcher = new TaskLauncher();
  launcher.warmUp();
  await launcher.kill();
  process.stdout.write('killed\n');
}

void main();
