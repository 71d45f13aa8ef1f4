import type { Info } from '../api/wire';

/**
 * Whether pacer runs over `--cluster sim`, the only cluster that serves `/pacer/v1/sim`: `/v2/info`
 * `marathon_config.master` is then `sim://…` (src/runtime/sim-api.ts; a Mesos master is
 * `http(s)://` or `zk://`, the local cluster `local://`).
 */
export function isSimCluster(info: Info): boolean {
  return info.marathon_config.master.startsWith('sim://');
}

/**
 * What the simulation page can show: `sim` (read `/pacer/v1/sim`), `not-sim` (another cluster),
 * `unknown` (`/v2/info` failed before any answer, e.g. 403 for a principal whose grants do not
 * reach `/`: the page cannot tell, and says why rather than loading for ever), `loading`.
 */
export type SimPageState = 'sim' | 'not-sim' | 'unknown' | 'loading';

/** {@link SimPageState} from `/v2/info`'s latest answer and whether its latest read failed. */
export function simPageState(info: Info | undefined, infoFailed: boolean): SimPageState {
  if (info !== undefined) return isSimCluster(info) ? 'sim' : 'not-sim';
  return infoFailed ? 'unknown' : 'loading';
}

/** `local cluster`, `simulated cluster`, `Mesos http://…` from `/v2/info`'s master. */
export function clusterLabel(info: Info): string {
  const master = info.marathon_config.master;
  if (isSimCluster(info)) return 'simulated cluster';
  if (master.startsWith('local')) return 'local cluster';
  return `Mesos ${master}`;
}

/**
 * What the header says when `/v2/info` failed with `status` (0: no answer): only no answer is
 * "unreachable". A signed-in user whose grants do not reach `/` gets 403 for `/v2/info` while the
 * pages it may view work (README, "Who may call"): that is a refusal, not a lost pacer.
 */
export function infoFailureText(status: number): string {
  if (status === 0) return 'pacer unreachable';
  if (status === 401) return 'not signed in';
  if (status === 403) return 'cluster details not permitted';
  return `pacer answered ${status}`;
}

/**
 * The header's cluster line: `pacer unreachable` as soon as any of the shell's own reads (`/v2/info`,
 * the deployments and queue behind the tab counts) got no answer, even with an earlier `/v2/info`
 * answer in hand (pacer stopped or restarting under an open page, where the header kept saying
 * `local cluster · v1.11.26`); else the cluster and version, else why `/v2/info` failed.
 */
export function clusterLine(info: Info | undefined, infoFailureStatus: number | undefined, otherFailureStatuses: readonly (number | undefined)[]): string {
  if (infoFailureStatus === 0 || otherFailureStatuses.includes(0)) return infoFailureText(0);
  if (info !== undefined) return `${clusterLabel(info)} · v${info.version}`;
  return infoFailureStatus === undefined ? '' : infoFailureText(infoFailureStatus);
}
