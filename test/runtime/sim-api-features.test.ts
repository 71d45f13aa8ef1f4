import t from 'tap';
import { createRunSession } from '../../sim/runner/run-scenario';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { ApiListeners } from '../../src/runtime/api-listeners';
import { defaultConfig } from '../../src/runtime/config';
import { simApi } from '../../src/runtime/sim-api';

/**
 * `--cluster sim`'s API takes the features that only say what it accepts (an app's GPUs, secrets,
 * external volumes) from `--enable_features`, and `task_killing`, the core's, from the workload
 * (src/runtime/sim-api.ts): a sim pacer can be asked what Marathon with the same flags accepts.
 */
const GPU_APP = { id: '/gpu', cmd: 'sleep 1000', cpus: 0.1, mem: 32, gpus: 1, instances: 0 };

t.test('--cluster sim: --enable_features gpu_resources lets the API accept an app\'s GPUs; without it, Marathon\'s 422', async (t) => {
  const rows: readonly { features: readonly string[]; taskKilling: boolean; status: number; reported: readonly string[] }[] = [
    { features: [], taskKilling: false, status: 422, reported: [] },
    { features: ['gpu_resources'], taskKilling: false, status: 201, reported: ['gpu_resources'] },
    { features: ['gpu_resources', 'task_killing'], taskKilling: false, status: 201, reported: ['gpu_resources'] },
    { features: [], taskKilling: true, status: 422, reported: ['task_killing'] },
  ];
  for (const row of rows) {
    const yaml = [
      'name: sim-features', 'seed: 1', 'duration: 1m', ...(row.taskKilling ? ['options: { taskKilling: true }'] : []),
      'cluster:', '  agents:', '    - { count: 1, resources: { cpus: 2, mem: 2048 } }', 'timeline: []', '',
    ].join('\n');
    const loaded = loadScenario('sim-features.yaml', yaml);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const session = createRunSession(loaded.scenario, { invariants: false, trace: false });
    const config = { ...defaultConfig(process.cwd()), cluster: 'sim' as const, address: '127.0.0.1', port: 0, features: row.features };
    const { app } = simApi(session, loaded.scenario, config, () => undefined, Date.now(), { listeners: new ApiListeners(config) });
    const name = `flag [${row.features.join(',')}], workload taskKilling ${row.taskKilling}`;
    const res = await app.inject({ method: 'POST', url: '/v2/apps', payload: GPU_APP });
    t.equal(res.statusCode, row.status, `${name}: POST of an app with gpus 1`);
    if (row.status === 422) t.match(res.body, /Feature gpu_resources is not enabled/, `${name}: Marathon's message`);
    const info = JSON.parse((await app.inject({ method: 'GET', url: '/v2/info' })).body) as { marathon_config: { features?: string[] } };
    t.same([...(info.marathon_config.features ?? ['(none)'])].sort(), [...row.reported].sort(), `${name}: /v2/info's features`);
    await app.close();
  }
});
