import type { Info } from '../api/wire';

/**
 * Whether pacer runs over `--cluster sim`, the only cluster that serves `/pacer/v1/sim`: `/v2/info`
 * `marathon_config.master` is then `sim://…` (src/runtime/sim-api.ts; a Mesos master is
 * `http(s)://` or `zk://`, the local cluster `local://`).
 */
export function isSimCluster(info: Info): boolean {
  return info.marathon_config.master.startsWith('sim://');
}

/** `local cluster`, `simulated cluster`, `Mesos http://…` from `/v2/info`'s master. */
export function clusterLabel(info: Info): string {
  const master = info.marathon_config.master;
  if (isSimCluster(info)) return 'simulated cluster';
  if (master.startsWith('local')) return 'local cluster';
  return `Mesos ${master}`;
}
