/** A MasterInfo as a Mesos master writes it into its `json.info_` znode (spec §1.9). */
export function masterInfoJson(hostname: string, ip: string, port: number): string {
  return JSON.stringify({
    address: { hostname, ip, port },
    hostname,
    id: `master-${hostname}-${port}`,
    ip: 16777343,
    pid: `master@${ip}:${port}`,
    port,
    version: '1.11.0',
  });
}
