import t from 'tap';
import { frameworkInfo, type FrameworkOptions } from '../../../../src/cluster/mesos/translate/framework-info';

const base: FrameworkOptions = {
  name: 'pacer', user: 'nobody', failoverTimeoutSeconds: 604_800, roles: ['web', '*', 'db', 'web'],
  taskKilling: false, gpus: false,
};

t.test('capabilities: Marathon\'s set, optional ones when enabled', async (t) => {
  const cases = [
    { name: 'defaults', opts: base, want: ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE'] },
    { name: 'task killing', opts: { ...base, taskKilling: true }, want: ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE', 'TASK_KILLING_STATE'] },
    { name: 'gpus', opts: { ...base, gpus: true }, want: ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE', 'GPU_RESOURCES'] },
    { name: 'both', opts: { ...base, taskKilling: true, gpus: true }, want: ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE', 'TASK_KILLING_STATE', 'GPU_RESOURCES'] },
  ];
  for (const c of cases) t.strictSame(frameworkInfo(c.opts).capabilities?.map((cap) => cap.type), c.want, c.name);
});

t.test('first subscription and resubscription', async (t) => {
  t.strictSame(frameworkInfo(base), {
    user: 'nobody', name: 'pacer', failoverTimeout: 604_800, checkpoint: true,
    capabilities: [{ type: 'MULTI_ROLE' }, { type: 'PARTITION_AWARE' }, { type: 'REGION_AWARE' }],
    roles: ['*', 'db', 'web'],
  }, 'roles sorted and unique; no id; never the deprecated role');
  const again = frameworkInfo({ ...base, frameworkId: 'F1', hostname: 'pacer-1', webuiUrl: 'http://pacer-1:8080', principal: 'pacer' });
  t.strictSame(again.id, { value: 'F1' });
  t.equal(again.hostname, 'pacer-1');
  t.equal(again.webuiUrl, 'http://pacer-1:8080');
  t.equal(again.principal, 'pacer');
  t.notOk('role' in again);
});
