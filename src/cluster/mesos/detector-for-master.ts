import type { MasterDetector } from './master-detector';
import { StaticMasterDetector } from './static-master-detector';
import { ZkMasterDetector } from './zk/zk-master-detector';
import { redactUrlValue } from '../url-credentials';

/**
 * The detector `--master` asks for: `http(s)://host:port` → {@link StaticMasterDetector} (one
 * master; 307s lead to the leader), `zk://host:port[,…]/path` → {@link ZkMasterDetector} (follows
 * leader elections, mesos-v1-scheduler-api.md §1.9). Throws a clear Error for a missing or
 * unsupported value, before anything starts.
 */
export function detectorForMaster(master: string | undefined): MasterDetector {
  if (master === undefined || master.trim() === '') {
    throw new Error('--cluster mesos needs --master (http://host:5050 or zk://host:2181/mesos)');
  }
  const value = master.trim();
  if (value.startsWith('zk://')) return new ZkMasterDetector(value);
  if (value.startsWith('http://') || value.startsWith('https://')) return new StaticMasterDetector(value);
  throw new Error(`--master ${JSON.stringify(redactUrlValue(master))}: expected http://host:port, https://host:port or zk://host:port/path`);
}
